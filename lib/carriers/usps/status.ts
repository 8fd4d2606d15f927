import type { TrackerStatus } from "@/lib/carriers/types";

/**
 * USPS event codes and status categories to our tracker statuses (status-codes.ts: the codes as USPS lists them;
 * status.test.ts holds this table to that list). Looked up in Maps: the codes come from USPS's answer.
 *
 * A notice left or an address USPS cannot deliver to is `delivery_failed` (the parcel waits or goes back); a
 * dead letter is `lost` (USPS's Mail Recovery Center: it will not arrive). Missent and mis-shipped parcels are
 * `delivery_delayed`: they move on, late.
 */
export const USPS_STATUS_BY_CODE: ReadonlyMap<string, TrackerStatus> = new Map<string, TrackerStatus>([
  ["MA", "pending"],
  ["GX", "pending"],
  ["03", "picked_up"],
  ["80", "picked_up"],
  ["81", "in_transit"],
  ["82", "in_transit"],
  ["SF", "in_transit"],
  ["10", "in_transit"],
  ["A1", "in_transit"],
  ["T1", "in_transit"],
  ["TL", "in_transit"],
  ["PC", "in_transit"],
  ["06", "in_transit"],
  ["07", "in_transit"],
  ["08", "delivery_delayed"],
  ["15", "delivery_delayed"],
  ["OF", "out_for_delivery"],
  ["01", "delivered"],
  ["17", "delivered"],
  ["43", "delivered"],
  ["02", "delivery_failed"],
  ["52", "delivery_failed"],
  ["04", "delivery_failed"],
  ["05", "delivery_failed"],
  ["21", "delivery_failed"],
  ["22", "delivery_failed"],
  ["23", "delivery_failed"],
  ["25", "delivery_failed"],
  ["26", "delivery_failed"],
  ["28", "delivery_failed"],
  ["51", "delivery_failed"],
  ["53", "delivery_failed"],
  ["54", "delivery_failed"],
  ["55", "delivery_failed"],
  ["57", "delivery_failed"],
  ["14", "ready_for_pickup"],
  ["16", "ready_for_pickup"],
  ["09", "return_to_sender"],
  ["24", "return_to_sender"],
  ["27", "return_to_sender"],
  ["29", "return_to_sender"],
  ["44", "return_to_sender"],
  ["11", "lost"],
]);

/** Status categories, compared in lower case. "Alert" is USPS's word for something wrong: the parcel is held. */
export const USPS_STATUS_BY_CATEGORY: ReadonlyMap<string, TrackerStatus> = new Map<string, TrackerStatus>([
  ["pre-shipment", "pending"],
  ["accepted", "picked_up"],
  ["in transit", "in_transit"],
  ["out for delivery", "out_for_delivery"],
  ["delivered", "delivered"],
  ["alert", "on_hold"],
  ["delivery attempt", "delivery_failed"],
  ["available for pickup", "ready_for_pickup"],
  ["return to sender", "return_to_sender"],
]);

/** The status of an event code, else of a category; null when neither is known. */
export function uspsStatus(code: unknown, category?: unknown): TrackerStatus | null {
  const byCode = typeof code === "string" ? USPS_STATUS_BY_CODE.get(code.trim().toUpperCase()) : undefined;
  if (byCode) return byCode;
  return (typeof category === "string" && USPS_STATUS_BY_CATEGORY.get(category.trim().toLowerCase())) || null;
}

/** Codes that say the label was only made: no scan of the parcel yet (a refund's used/unused test reads them). */
export const PRE_SHIPMENT_CODES: ReadonlySet<string> = new Set(["MA", "GX"]);
