import type { TrackerStatus } from "@/lib/carriers/types";

/**
 * A UPS tracking status as ours (carriers.md §1.4). UPS gives three things: `type`, the activity type (M label
 * created, MV label voided, P pickup, I in transit or out for delivery, D delivered, X exception, NA not available,
 * U update); `statusCode`, a 3-digit status/description code that says which kind of "I" or "X" it is; and `code`,
 * a 2-letter scan code (OT out for delivery, OR/PU picked up, …).
 */
export interface UpsStatus {
  type?: string | null;
  code?: string | null;
  statusCode?: string | null;
}

const OUT_FOR_DELIVERY = new Set(["006", "021", "037", "072"]);
const OUT_FOR_DELIVERY_SCANS = new Set(["OT", "OD"]);
const PICKED_UP = new Set(["038"]);
const PICKED_UP_SCANS = new Set(["OR", "PU"]);
const READY_FOR_PICKUP = new Set(["017", "040"]);
const RETURNED = new Set(["033", "034", "035", "036"]);
const ATTEMPTS = new Set(["022", "023", "024", "064"]);
const DELAYS = new Set(["046", "048", "052", "053"]);

export function upsTrackerStatus(status: UpsStatus | null | undefined): TrackerStatus {
  const type = (status?.type ?? "").trim().toUpperCase();
  const scan = (status?.code ?? "").trim().toUpperCase();
  const digits = (status?.statusCode ?? "").trim();
  // UPS's list of these codes is unpadded ("6") while answers pad them ("006"): compare padded.
  const code = /^\d{1,3}$/.test(digits) ? digits.padStart(3, "0") : digits;

  if (type === "D") return "delivered";
  if (type === "MV" || code === "007") return "cancelled";
  if (type === "M") return "pending";
  if (READY_FOR_PICKUP.has(code)) return "ready_for_pickup";
  if (RETURNED.has(code)) return "return_to_sender";
  if (type === "X") {
    if (ATTEMPTS.has(code)) return "delivery_failed";
    if (DELAYS.has(code)) return "delivery_delayed";
    return "on_hold";
  }
  if (type === "P" || PICKED_UP.has(code) || PICKED_UP_SCANS.has(scan)) return "picked_up";
  if (type === "I" || type === "U") {
    if (OUT_FOR_DELIVERY.has(code) || OUT_FOR_DELIVERY_SCANS.has(scan)) return "out_for_delivery";
    return "in_transit";
  }
  return "unknown";
}
