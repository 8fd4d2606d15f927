/**
 * USPS's tracking event codes (`trackingEvents[].eventCode`), as tracking.yaml points to them: Publication 199,
 * Appendix G-4 "USPS Domestic Tracking Scan Events". USPS publishes that table as a PDF outside its API files, so
 * it is not vendored: this list is our transcription of the codes a parcel's label sees, with USPS's wording, and
 * karrio's USPS tracking fixture (GX, 03, SF, 10, T1, TL, A1, 07, OF, 01) is part of it. Checked in so that the
 * coverage test (status.test.ts) needs nothing outside the repository; a code USPS adds later reads as movement.
 */
export const USPS_EVENT_CODES: readonly (readonly [string, string])[] = [
  ["MA", "Pre-Shipment Info Sent to USPS"],
  ["GX", "Shipping Label Created, USPS Awaiting Item"],
  ["03", "Accepted at USPS Origin Facility / USPS in possession of item"],
  ["80", "Picked Up by Shipping Partner"],
  ["81", "Arrived at Shipping Partner Facility"],
  ["82", "Departed Shipping Partner Facility"],
  ["SF", "Departed Post Office"],
  ["10", "Arrived at USPS Regional Origin Facility"],
  ["A1", "Arrived at USPS Regional Facility"],
  ["T1", "Departed USPS Regional Facility"],
  ["TL", "In Transit to Next Facility"],
  ["PC", "Sorting Complete"],
  ["06", "Forwarded"],
  ["07", "Arrived at Post Office"],
  ["08", "Missent"],
  ["15", "Mis-shipped"],
  ["OF", "Out for Delivery"],
  ["01", "Delivered"],
  ["17", "Picked Up by Agent"],
  ["43", "Picked Up at Post Office"],
  ["02", "Notice Left (No Authorized Recipient Available)"],
  ["52", "Notice Left (Receptacle Full / Item Oversized)"],
  ["04", "Refused"],
  ["05", "Undeliverable as Addressed"],
  ["21", "No Such Number"],
  ["22", "Insufficient Address"],
  ["23", "Moved, Left No Address"],
  ["25", "Addressee Unknown"],
  ["26", "Vacant"],
  ["28", "Deceased"],
  ["51", "Business Closed"],
  ["53", "Receptacle Blocked"],
  ["54", "No Access to Delivery Location"],
  ["55", "Dog Interference"],
  ["57", "No Secure Location Available"],
  ["14", "Arrival at Pickup Point"],
  ["16", "Available for Pickup"],
  ["09", "Return to Sender"],
  ["24", "Forward Expired"],
  ["27", "Unclaimed"],
  ["29", "Return to Sender, Not Picked Up"],
  ["44", "Customer Recall"],
  ["11", "Dead Letter"],
];

/**
 * USPS's status categories (`statusCategory`, the same appendix), read when an event's code is not in the table.
 * karrio's recorded answers show "Accepted" and "Delivered"; the others are USPS's public tracking page's.
 */
export const USPS_STATUS_CATEGORIES: readonly string[] = [
  "Pre-Shipment",
  "Accepted",
  "In Transit",
  "Out for Delivery",
  "Delivered",
  "Alert",
  "Delivery Attempt",
  "Available for Pickup",
  "Return to Sender",
];
