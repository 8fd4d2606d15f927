/**
 * DHL Express's own list of tracking event codes (`events[].typeCode` of a MyDHL tracking answer): the `express`
 * rows of DHL's status code list (test/emulator/specs/dhl_express/status-codes.csv, vendored from karrioapi/karrio @
 * deea10f, modules/connectors/mydhl/vendors/; its other rows are DHL eCommerce, Parcel and Freight products, not
 * MyDHL's). Description and remark as DHL wrote them ("no EDD": DHL gives no estimated delivery after it).
 *
 * Checked in so that the coverage test (status.test.ts) needs nothing outside the repository, and compared there with
 * the vendored file: every code our table maps must be one of these, and every one of these is mapped.
 */
export const DHL_STATUS_CODES: Readonly<Record<string, string>> = {
  "101": "delivered (on shipment level)",
  "102": "transit (on shipment level)",
  "103": "failure (on shipment level)",
  "104": "pre-transit (on shipment level)",
  AD: "Agreed delivery",
  AF: "Arrived facility",
  AR: "Arrival in delivery facility",
  BA: "Bad address",
  BN: "Customer broker notified",
  BR: "Broker release (no EDD)",
  CA: "Closed on arrival (no EDD)",
  CC: "Awaiting cnee collection (no EDD)",
  CD: "Controllable clearance delay",
  CM: "Customer moved",
  CR: "Clearance release",
  CS: "Closed shipment (no EDD)",
  DD: "Delivered damaged (no EDD)",
  DF: "Depart facility",
  DS: "Destroyed / disposal (no EDD)",
  FD: "Forward destination (DD's expected)",
  HP: "Held for payment",
  IC: "In clearance processing",
  MC: "Miscode",
  MD: "Missed delivery cycle",
  MS: "Mis-sort",
  ND: "Not delivered",
  NH: "Not home (no EDD)",
  OH: "On hold",
  OK: "Delivery (no EDD)",
  PD: "Partial delivery (no EDD)",
  PL: "Processed at location",
  PU: "Shipment pick up",
  RD: "Refused delivery (no EDD)",
  RR: "Response received",
  RT: "Returned to consignor (no EDD)",
  SA: "Shipment acceptance",
  SC: "Service changed",
  SS: "Shipment stopped (no EDD)",
  TP: "Forwarded to 3rd party - no DD's (no EDD)",
  TR: "Record of transfer",
  UD: "Uncontrollable clearance delay",
  WC: "With delivering courier",
  PY: "Payment (new since 4th June 2024)",
  SM: "Scheduled for movement (new since 4th June 2024)",
};
