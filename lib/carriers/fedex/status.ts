import type { TrackerStatus } from "@/lib/carriers/types";

/**
 * FedEx tracking status and scan codes to our tracker statuses, every code of FedEx's "Tracking Status Codes"
 * (status-codes.ts: its Movement and Regulatory tables) by name; status.test.ts holds the table to that list.
 *
 * No FedEx code says a parcel is lost, damaged beyond delivery or destroyed (so none is `lost`): FedEx reports those
 * as an exception (SE, DE) whose text says what happened, and a status read from that text would depend on the
 * answer's language and wording. Such a parcel reads `on_hold` or `delivery_failed`, with FedEx's words in the
 * event's description.
 */
export const FEDEX_STATUS_BY_CODE: Readonly<Record<string, TrackerStatus>> = {
  // Label made; a courier on the way to, or at, the pickup: the parcel is not with FedEx yet.
  OC: "pending",
  EP: "pending",
  AP: "pending",
  DS: "pending", // vehicle dispatched (for the pickup)
  DR: "pending", // vehicle furnished but not used: the pickup did not happen
  // FedEx email return labels (a link sent, expiring soon; Shipwell buys none): a label, no parcel yet.
  RP: "pending",
  RG: "pending",
  PU: "picked_up",
  PX: "picked_up",
  // Movement through FedEx's network, its partners' (Canada Post, USPS) and customs as usual.
  AA: "in_transit",
  AC: "in_transit",
  AF: "in_transit",
  AO: "in_transit",
  AR: "in_transit",
  AX: "in_transit",
  CH: "in_transit",
  DP: "in_transit",
  EA: "in_transit", // enroute to airport, and (Regulatory) export approved
  EO: "in_transit",
  FD: "in_transit",
  IT: "in_transit",
  IX: "in_transit",
  LO: "in_transit",
  OF: "in_transit",
  OW: "in_transit",
  OX: "in_transit", // shipment information sent to USPS (Ground Economy's last mile)
  PF: "in_transit",
  PL: "in_transit",
  PM: "in_transit",
  SF: "in_transit",
  SP: "in_transit", // split status: the pieces of a shipment differ; each piece's own scans tell it
  TR: "in_transit",
  CC: "in_transit",
  CP: "in_transit",
  // Custom Delivery Options asked, changed or dropped by the recipient: the parcel moves on.
  RR: "in_transit",
  RM: "in_transit",
  RC: "in_transit",
  OD: "out_for_delivery",
  ED: "out_for_delivery", // enroute to delivery
  AD: "out_for_delivery", // at delivery
  DL: "delivered",
  DE: "delivery_failed", // delivery exception: an attempt that failed
  SE: "on_hold", // shipment exception
  CD: "on_hold", // clearance delay: customs wants something
  DY: "delivery_delayed",
  DD: "delivery_delayed",
  PD: "delivery_delayed", // pickup delay
  HL: "ready_for_pickup", // hold at location
  HP: "ready_for_pickup", // ready for recipient pickup
  RS: "return_to_sender",
  CA: "cancelled",
  // A return label's link cancelled by the shipper or expired: no parcel will come under it.
  LP: "cancelled",
  RD: "cancelled",
  // Not in FedEx's list: the derived code FedEx answers for a shipment that has only its label ("Initiated",
  // statusByLocale "Label created"); FEDEX_BEYOND_LIST says so for the coverage test.
  IN: "pending",
};

/** Codes our table reads that FedEx's published list does not have, with where they come from. */
export const FEDEX_BEYOND_LIST: Readonly<Record<string, string>> = {
  IN: 'derivedCode "Initiated" of a label-only shipment in FedEx answers (karrio\'s recorded FedEx fixtures), beside OC',
};

/**
 * FedEx's "Possession" table: who holds the parcel (carrier, recipient, shipper, customs, broker, transfer partner,
 * split). Not status codes, and not read: track.json carries no possession code, only `beforePossessionStatus`.
 */
export const FEDEX_NOT_STATUS = "Possession";

/** Our status for a FedEx status or scan code (`latestStatusDetail.code`/`derivedCode`, `scanEvents[].eventType`). */
export function fedexStatus(code: string | null | undefined): TrackerStatus {
  const c = code?.trim().toUpperCase();
  if (!c) return "unknown";
  // A code FedEx adds after its list was published is most likely another scan along the way.
  return Object.hasOwn(FEDEX_STATUS_BY_CODE, c) ? FEDEX_STATUS_BY_CODE[c]! : "in_transit";
}
