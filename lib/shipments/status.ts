import "server-only";
import { and, eq, getTableColumns, inArray, isNull, lt, notInArray, or, SQL, sql } from "drizzle-orm";
import { shipments } from "@/lib/db/schema";
import type { Tx } from "@/lib/db/tx";
import type { ShipmentStatus } from "@/lib/schemas/shipment";
import { CANCEL_ATTEMPT } from "./outcome-unknown";
import type { ShipmentRow } from "./rows";
import { recordShipmentEvents, transitionEventType, type PartsInHand } from "./shipment-events";

/**
 * The one way a shipment's status changes. A purchase, a cancellation and a tracker moving its shipment all write
 * the status through changeShipmentStatus, inside their own transaction, and get back what changed: per shipment, the
 * status it had and the one it has now. That is the seam for events about shipments (a webhooks outbox written in the
 * same transaction as the change): each transition is written to the outbox here (shipment-events.ts).
 */

interface ShipmentTransition {
  orgId: string;
  shipmentId: string;
  from: ShipmentStatus;
  to: ShipmentStatus;
}

export interface StatusChange {
  orgId: string;
  shipmentId: string;
  to: ShipmentStatus;
  /**
   * Whether the shipment as it stands (locked) may make this move; false leaves it untouched. As SQL (a condition on
   * the shipments row), the lock, the check and the write are one statement: one round trip, not two, for the
   * changes that come one at a time (a purchase's or cancellation's end).
   */
  allowed: ((current: ShipmentRow) => boolean) | SQL;
  /** Columns written together with the status (what a purchase records, say). */
  set?: Partial<Omit<typeof shipments.$inferInsert, "id" | "orgId" | "status">>;
  /**
   * The shipment's addresses, parcels, rates and documents as they stand after the change, when the caller has them
   * (a purchase): its event is presented from them instead of reading them again in the transaction.
   */
  parts?: PartsInHand;
}

export interface StatusChanges {
  transitions: ShipmentTransition[];
  /** The rows as written, one per change that was allowed. */
  rows: ShipmentRow[];
}

/**
 * Locks the shipments, applies each allowed change and reports it. The lock is `FOR NO KEY UPDATE`, the one an
 * UPDATE takes anyway: `from` is exact and nothing moves the row meanwhile, while inserts that only reference the
 * shipment (a label, a tracker) are not blocked. `candidates` narrows which rows are locked at all (a refresh batch
 * leaves delivered or cancelled shipments alone). Callers that also write trackers write them first: the background
 * refresh locks trackers before shipments, and one lock order means no deadlock.
 */
export async function changeShipmentStatus(
  tx: Tx,
  changes: StatusChange[],
  now: Date,
  candidates?: SQL,
): Promise<StatusChanges> {
  if (changes.length === 0) return { transitions: [], rows: [] };
  const inSql = changes.filter((c) => c.allowed instanceof SQL);
  const inJs = changes.filter((c) => !(c.allowed instanceof SQL));
  const allowed: { change: StatusChange; from: ShipmentStatus }[] = [];
  const rows: ShipmentRow[] = [];
  for (const change of inSql) {
    const written = await updateIfAllowed(tx, change, change.allowed as SQL, now, candidates);
    if (written) {
      const { from, ...row } = written;
      allowed.push({ change, from });
      rows.push(row);
    }
  }
  if (inJs.length > 0) await changeLocked(tx, inJs, now, candidates, allowed, rows);

  const transitions = allowed
    .filter(({ change, from }) => from !== change.to)
    .map(({ change, from }) => ({ orgId: change.orgId, shipmentId: change.shipmentId, from, to: change.to }));
  // Every status change is an event, written here, in the change's own transaction (lib/webhooks/outbox.ts).
  const written = new Map(rows.map((r) => [r.id, r]));
  const partsOf = new Map(changes.map((c) => [c.shipmentId, c.parts]));
  await recordShipmentEvents(
    tx,
    transitions.map((t) => ({
      row: written.get(t.shipmentId)!,
      type: transitionEventType(t.to),
      parts: partsOf.get(t.shipmentId),
    })),
    now,
  );
  return { transitions, rows };
}

/**
 * One change whose check is SQL, in one statement: the subquery locks the row as changeLocked does and keeps its
 * status as it was (the transition's `from`; RETURNING gives the row as written), and the UPDATE writes it only where
 * the check holds. Under READ COMMITTED a row changed meanwhile is waited for, then checked again as it now stands.
 */
async function updateIfAllowed(
  tx: Tx,
  change: StatusChange,
  allowed: SQL,
  now: Date,
  candidates: SQL | undefined,
): Promise<(ShipmentRow & { from: ShipmentStatus }) | undefined> {
  const before = tx
    .select({ orgId: shipments.orgId, id: shipments.id, status: shipments.status })
    .from(shipments)
    .where(and(eq(shipments.orgId, change.orgId), eq(shipments.id, change.shipmentId), candidates))
    .for("no key update")
    .as("before");
  const [row] = await tx
    .update(shipments)
    .set({ ...change.set, status: change.to, updatedAt: now })
    .from(before)
    .where(and(eq(shipments.orgId, before.orgId), eq(shipments.id, before.id), allowed))
    .returning({ ...getTableColumns(shipments), from: before.status });
  return row;
}

/** The changes whose check runs here, on the rows as locked: plain moves in one statement per organization and status. */
async function changeLocked(
  tx: Tx,
  changes: StatusChange[],
  now: Date,
  candidates: SQL | undefined,
  allowed: { change: StatusChange; from: ShipmentStatus }[],
  rows: ShipmentRow[],
): Promise<void> {
  const locked = await tx
    .select()
    .from(shipments)
    .where(
      and(
        inArray(shipments.orgId, [...new Set(changes.map((c) => c.orgId))]),
        inArray(
          shipments.id,
          changes.map((c) => c.shipmentId),
        ),
        candidates,
      ),
    )
    .for("no key update");
  const current = new Map(locked.map((s) => [s.id, s]));
  const mine = changes.flatMap((change) => {
    const row = current.get(change.shipmentId);
    const check = change.allowed as (current: ShipmentRow) => boolean;
    return row && row.orgId === change.orgId && check(row) ? [{ change, from: row.status }] : [];
  });
  allowed.push(...mine);

  // With extra columns, one statement each; plain moves (a refresh batch) in one statement per organization and
  // target status.
  for (const { change } of mine.filter((a) => a.change.set)) {
    const [row] = await tx
      .update(shipments)
      .set({ ...change.set, status: change.to, updatedAt: now })
      .where(and(eq(shipments.orgId, change.orgId), eq(shipments.id, change.shipmentId)))
      .returning();
    rows.push(row!);
  }
  const groups = new Map<string, { orgId: string; to: ShipmentStatus; ids: string[] }>();
  for (const { change } of mine.filter((a) => !a.change.set)) {
    const key = `${change.orgId} ${change.to}`;
    const group = groups.get(key) ?? { orgId: change.orgId, to: change.to, ids: [] };
    group.ids.push(change.shipmentId);
    groups.set(key, group);
  }
  for (const { orgId, to, ids } of groups.values()) {
    rows.push(
      ...(await tx
        .update(shipments)
        .set({ status: to, updatedAt: now })
        .where(and(eq(shipments.orgId, orgId), inArray(shipments.id, ids)))
        .returning()),
    );
  }
}

/** Shipment statuses tracking can no longer move: nothing leaves cancelled or delivered; created has no label. */
const TRACKING_CANNOT_MOVE: ShipmentStatus[] = ["created", "cancelled", "delivered"];

/**
 * Shipments follow their trackers (docs/api.md, "Managed mode: trackers"), except out of the states nothing leaves
 * (or `created`), and not while a purchase or cancellation holds the shipment: that operation decides its status.
 * Nor while a void's answer is lost (`meta.cancel_attempt`): a voided label may still "move" at a carrier that tracks
 * it, and a retried cancellation must find the shipment purchased to settle it. Only shipments tracking may move
 * are locked.
 */
export function moveShipmentsWithTracking(
  tx: Tx,
  moves: { orgId: string; shipmentId: string; to: ShipmentStatus }[],
  now: Date,
): Promise<StatusChanges> {
  const movable = and(
    notInArray(shipments.status, TRACKING_CANNOT_MOVE),
    or(isNull(shipments.pendingOperation), lt(shipments.pendingUntil, now)),
    sql`(${shipments.meta} -> ${CANCEL_ATTEMPT}::text) is null`,
  );
  return changeShipmentStatus(
    tx,
    moves.map((m) => ({ ...m, allowed: (s) => s.status !== m.to })),
    now,
    movable,
  );
}
