import type { TrackerStatus } from "@/lib/carriers/types";

/**
 * FedEx tracking status and scan codes (FedEx "Track Service Scan Codes" / status table) to our tracker statuses,
 * per ../shared/carriers.md §2.4. Every code not listed is movement through FedEx's network: in_transit.
 */
const STATUS_BY_CODE: ReadonlyMap<string, TrackerStatus> = new Map([
  ["OC", "pending"], // shipment information sent to FedEx (label created)
  ["IN", "pending"], // initiated: the derived code FedEx gives a shipment that has only its label
  ["PU", "picked_up"],
  ["PX", "picked_up"],
  ["OD", "out_for_delivery"],
  ["ED", "out_for_delivery"], // enroute to delivery
  ["AD", "out_for_delivery"], // at delivery
  ["DL", "delivered"],
  ["DE", "delivery_failed"], // delivery exception
  ["SE", "on_hold"], // shipment exception
  ["CD", "on_hold"], // clearance delay
  ["DY", "delivery_delayed"],
  ["DD", "delivery_delayed"],
  ["PD", "delivery_delayed"], // pickup delay
  ["HL", "ready_for_pickup"], // hold at location
  ["HP", "ready_for_pickup"], // ready for recipient pickup
  ["RS", "return_to_sender"],
  ["CA", "cancelled"],
]);

/** Our status for a FedEx status or scan code (`latestStatusDetail.derivedCode`, `scanEvents[].eventType`). */
export function fedexStatus(code: string | null | undefined): TrackerStatus {
  const c = code?.trim().toUpperCase();
  if (!c) return "unknown";
  return STATUS_BY_CODE.get(c) ?? "in_transit";
}
