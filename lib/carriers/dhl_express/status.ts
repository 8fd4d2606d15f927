import type { TrackerStatus } from "@/lib/carriers/types";

/**
 * DHL Express event codes to our tracker statuses, every code of DHL's list (status-codes.ts, the `express` rows of
 * its status code file) by name; status.test.ts holds the table to that list and the list to the vendored file.
 */
export const DHL_STATUS_BY_CODE: Readonly<Record<string, TrackerStatus>> = {
  // Shipment-level summaries DHL lists beside the checkpoints.
  "101": "delivered",
  "102": "in_transit",
  "103": "delivery_failed",
  "104": "pending", // pre-transit: the label exists, the parcel is not with DHL yet
  SA: "picked_up", // shipment acceptance at a DHL counter or service point
  PU: "picked_up",
  // Movement through DHL's network and customs as usual.
  AF: "in_transit",
  PL: "in_transit",
  DF: "in_transit",
  AR: "in_transit",
  TR: "in_transit",
  FD: "in_transit",
  SM: "in_transit",
  SC: "in_transit", // service changed: the parcel moves on under another product
  AD: "in_transit", // delivery agreed with the recipient for a day of their choosing
  BN: "in_transit", // the recipient's customs broker notified
  BR: "in_transit",
  CR: "in_transit",
  IC: "in_transit",
  RR: "in_transit",
  PY: "in_transit", // a payment (duties, taxes) recorded: the parcel is released to move on
  TP: "in_transit", // handed to a partner for the last leg: no DHL delivery scan will follow
  WC: "out_for_delivery",
  OK: "delivered",
  DD: "delivered", // delivered, damaged: delivered all the same
  PD: "delivered", // partial delivery: the first pieces are with the recipient
  // An attempt that failed, for a reason at the recipient's end.
  NH: "delivery_failed",
  CA: "delivery_failed",
  BA: "delivery_failed",
  RD: "delivery_failed",
  MD: "delivery_failed",
  ND: "delivery_failed",
  CM: "delivery_failed",
  // Held: customs, payment or DHL itself wants something before the parcel moves on.
  OH: "on_hold",
  HP: "on_hold",
  CD: "on_hold",
  UD: "on_hold",
  SS: "on_hold",
  // Closed shipment (no EDD): DHL stopped handling it; nothing says delivered, returned or lost, so it is held.
  CS: "on_hold",
  MS: "delivery_delayed", // mis-sorted: the parcel goes round again
  MC: "delivery_delayed", // miscoded: routed to the wrong place, re-routed
  CC: "ready_for_pickup",
  RT: "return_to_sender",
  DS: "lost", // destroyed or disposed of: it will not arrive
};

/** Our status for a DHL event code (`events[].typeCode`). */
export function dhlStatus(code: string | null | undefined): TrackerStatus {
  const c = code?.trim().toUpperCase();
  if (!c) return "unknown";
  // A code DHL adds after its list was published is most likely another scan along the way.
  return Object.hasOwn(DHL_STATUS_BY_CODE, c) ? DHL_STATUS_BY_CODE[c]! : "in_transit";
}
