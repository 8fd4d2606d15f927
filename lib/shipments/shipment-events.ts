import "server-only";
import type { Tx } from "@/lib/db/tx";
import type { EventType } from "@/lib/schemas/event";
import type { ShipmentStatus } from "@/lib/schemas/shipment";
import { recordEvents } from "@/lib/webhooks/outbox";
import { loadShipmentParts, type ShipmentParts } from "./load-shipments";
import { presentShipment } from "./present-shipment";
import type { ShipmentRow } from "./rows";

/** The event a status change is: bought and cancelled have their own, every other move is `status_changed`. */
export function transitionEventType(to: ShipmentStatus): EventType {
  if (to === "purchased") return "shipment.purchased";
  if (to === "cancelled") return "shipment.cancelled";
  return "shipment.status_changed";
}

/** A shipment's parts as they stand after its change, when the writer has them in hand (StatusChange.parts). */
export type PartsInHand = Omit<ShipmentParts, "row" | "label">;

/**
 * Writes shipments' events to the outbox in the caller's transaction, each with the shipment as the API presents it
 * now (without the label file: events carry the resource, not its documents). An item with `parts` is presented
 * from them; the others' parts are read here.
 */
export async function recordShipmentEvents(
  tx: Tx,
  items: { row: ShipmentRow; type: EventType; parts?: PartsInHand }[],
  now: Date,
): Promise<void> {
  if (items.length === 0) return;
  const byOrg = new Map<string, ShipmentRow[]>();
  const presented = new Map<string, Record<string, unknown>>();
  for (const { row, parts } of items) {
    if (parts) presented.set(row.id, presentShipment({ ...parts, row, label: null }));
    else byOrg.set(row.orgId, [...(byOrg.get(row.orgId) ?? []), row]);
  }
  for (const [orgId, rows] of byOrg) {
    for (const parts of await loadShipmentParts(tx, orgId, rows, { labels: false })) {
      presented.set(parts.row.id, presentShipment(parts));
    }
  }
  await recordEvents(
    tx,
    items.map(({ row, type }) => ({
      orgId: row.orgId,
      type,
      resourceId: row.id,
      testMode: row.testMode,
      data: presented.get(row.id)!,
    })),
    now,
  );
}
