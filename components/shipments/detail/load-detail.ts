import "server-only";
import type { DomainContext } from "@/lib/context";
import { NotFoundError } from "@/lib/errors";
import { unwrapBase64 } from "@/lib/labels/base64";
import type { Shipment } from "@/lib/schemas/shipment";
import type { StoredTracker } from "@/lib/schemas/tracker";
import { getLabelFacts, type LabelFacts } from "@/lib/shipments/label-facts";
import { getShipment } from "@/lib/shipments/get-shipment";
import { getTracker } from "@/lib/trackers/get-tracker";

export interface ShipmentDetail {
  /** The shipment without its label bytes: nothing below needs them, and they must not travel to the browser. */
  shipment: Omit<Shipment, "label">;
  label: LabelFacts | null;
  /** The label's format while it may be printed (Shipment.label is null once voided or while a void is in doubt). */
  printable: LabelFacts["type"] | null;
  zpl: string | null;
  tracker: StoredTracker | null;
}

const orNull = <T>(err: unknown): T | null => {
  if (err instanceof NotFoundError) return null;
  throw err;
};

/** Everything the detail page shows, from the domain verbs with the session's context; null for an unknown id. */
export async function loadShipmentDetail(ctx: DomainContext, id: string): Promise<ShipmentDetail | null> {
  const full = await getShipment({ ctx, id }).catch(orNull<Shipment>);
  if (!full) return null;
  const { label: bytes, ...shipment } = full;
  const [label, tracker] = await Promise.all([
    getLabelFacts({ ctx, id }),
    shipment.tracker_id
      ? getTracker({ ctx, id: { trackerId: shipment.tracker_id } }).catch(orNull<StoredTracker>)
      : null,
  ]);
  const printable = bytes && label ? label.type : null;
  const zpl = bytes && printable === "ZPL" ? new TextDecoder().decode(unwrapBase64(bytes)) : null;
  return { shipment, label, printable, zpl, tracker };
}
