import type { TrackerStatus } from "@/lib/carriers/types";

/**
 * A UPS tracking status as ours (docs/ups.md, "Tracking"). UPS gives three things: `type`, the activity type (M label
 * created, MV label voided, I in transit or out for delivery, D delivered, X exception, NA not available, U update,
 * DO/DD/W freight only); `statusCode`, a 3-digit status/description code that says which kind of "I" or "X" it is; and
 * `code`, a 2-letter scan code (OT out for delivery, OR/PU picked up, …). UPS's lists of types and status codes are in
 * status-codes.ts; status.test.ts holds this table to them.
 */
export interface UpsStatus {
  type?: string | null;
  code?: string | null;
  statusCode?: string | null;
}

/**
 * Status codes that say what happened whatever the activity type, zero-padded as answers carry them. Every other
 * code of UPS's list is in TYPE_DECIDES with the reason it says nothing of its own.
 */
export const UPS_STATUS_BY_CODE: Readonly<Record<string, TrackerStatus>> = {
  // Label made, parcel not yet with UPS.
  "003": "pending",
  "077": "pending",
  "079": "pending",
  "080": "pending",
  "157": "pending",
  "007": "cancelled",
  // With UPS: picked up, or dropped off by the shipper at a UPS counter.
  "038": "picked_up",
  "160": "picked_up",
  "167": "picked_up",
  "168": "picked_up",
  "169": "picked_up",
  "006": "out_for_delivery",
  "021": "out_for_delivery",
  "037": "out_for_delivery",
  "072": "out_for_delivery",
  "078": "out_for_delivery",
  "089": "out_for_delivery",
  "091": "out_for_delivery",
  "146": "out_for_delivery",
  "162": "out_for_delivery",
  "011": "delivered",
  "026": "delivered",
  "143": "delivered",
  // Attempts, and a delivery that cannot be made (refused, unable to deliver).
  "022": "delivery_failed",
  "023": "delivery_failed",
  "024": "delivery_failed",
  "060": "delivery_failed",
  "061": "delivery_failed",
  "062": "delivery_failed",
  "064": "delivery_failed",
  "066": "delivery_failed",
  "069": "delivery_failed",
  "145": "delivery_failed",
  // Delays the parcel waits out without anyone acting (weather, security, a rescheduled day).
  "032": "delivery_delayed",
  "046": "delivery_delayed",
  "048": "delivery_delayed",
  "051": "delivery_delayed",
  "052": "delivery_delayed",
  "053": "delivery_delayed",
  "055": "delivery_delayed",
  "086": "delivery_delayed",
  "090": "delivery_delayed",
  "132": "delivery_delayed",
  // Waiting at a counter (a UPS facility, an Access Point, a post office) for the recipient.
  "017": "ready_for_pickup",
  "040": "ready_for_pickup",
  "144": "ready_for_pickup",
  "161": "ready_for_pickup",
  // Returning or returned; a request to return is UPS turning the parcel round, not the shipper asking.
  "033": "return_to_sender",
  "034": "return_to_sender",
  "035": "return_to_sender",
  "036": "return_to_sender",
  "067": "return_to_sender",
  "081": "return_to_sender",
  "118": "return_to_sender",
  "119": "return_to_sender",
  // UPS has given the parcel up: lost and found, seized, destroyed.
  "068": "lost",
  "147": "lost",
  "149": "lost",
  // Stopped until someone acts (customs, an address, payment, a partner's exception, a search for the parcel).
  "013": "on_hold",
  "019": "on_hold",
  "029": "on_hold",
  "030": "on_hold",
  // "Delay: Action Required": the parcel will not move until someone acts, which is a hold, not a wait.
  "049": "on_hold",
  "050": "on_hold",
  "058": "on_hold",
  // "Damage Reported": UPS rewraps and delivers most damaged parcels; a hold until it says which (081 returned,
  // 149 destroyed, a delivery).
  "059": "on_hold",
  "076": "on_hold",
  "083": "on_hold",
  "085": "on_hold",
  "093": "on_hold",
  "123": "on_hold",
  "124": "on_hold",
  "125": "on_hold",
  "126": "on_hold",
  "139": "on_hold",
  "141": "on_hold",
};

const MOVING = "moving: the activity type decides (I in transit, X an exception on hold, D delivered, M pending)";
const REQUEST =
  "a request or confirmation of a delivery change; where the parcel is comes with its type and later scans";
const CASE = "about a claim or an investigation, not the parcel's whereabouts; the activity type decides";
const PICKUP = "about a pickup appointment; the parcel's state comes with its type (M pending until UPS has it)";

/** UPS's codes (zero-padded) that say nothing the activity type does not, each with why. */
export const UPS_TYPE_DECIDES: Readonly<Record<string, string>> = {
  "000": "Status Not Available: nothing to read; type NA is unknown",
  "005": MOVING,
  "010": MOVING,
  "012": `Clearance in Progress: customs as usual, ${MOVING}`,
  "014": MOVING,
  "016": `In Warehouse: ${MOVING}`,
  "018": REQUEST,
  "020": REQUEST,
  "025": MOVING,
  "027": REQUEST,
  "028": REQUEST,
  "039": MOVING,
  "041": REQUEST,
  "042": REQUEST,
  "043": PICKUP,
  "044": `On the Way to UPS (from a drop-off partner): ${MOVING}`,
  "045": `On the Way to UPS (from a drop-off partner): ${MOVING}`,
  "047": MOVING,
  "054": REQUEST,
  "056": REQUEST,
  "057": MOVING,
  "063": REQUEST,
  "065": PICKUP,
  "070": `not at the Access Point yet: ${MOVING}`,
  "071": MOVING,
  "073": MOVING,
  "074": MOVING,
  "075": MOVING,
  "082": REQUEST,
  "084": MOVING,
  "087": MOVING,
  "088": "Test: UPS's test code, no parcel behind it; the type decides",
  "092": MOVING,
  "094": `Premier Recovery Completed (found again): ${MOVING}`,
  "095": REQUEST,
  "096": REQUEST,
  "097": REQUEST,
  "098": REQUEST,
  "099": REQUEST,
  "100": REQUEST,
  "101": REQUEST,
  "102": REQUEST,
  "103": REQUEST,
  "104": REQUEST,
  "105": REQUEST,
  "106": REQUEST,
  "107": REQUEST,
  "108": REQUEST,
  "109": REQUEST,
  "110": REQUEST,
  "111": REQUEST,
  "112": REQUEST,
  "113": REQUEST,
  "114": REQUEST,
  "115": REQUEST,
  "116": REQUEST,
  "117": REQUEST,
  "120": REQUEST,
  "121": REQUEST,
  "122": REQUEST,
  "127": CASE,
  "128": CASE,
  "129": CASE,
  "130": CASE,
  "131": PICKUP,
  "133": "a return label left with the recipient: the parcel itself was delivered (type D)",
  "134": MOVING,
  "135": PICKUP,
  "136": REQUEST,
  "137": MOVING,
  "138": MOVING,
  "140": `${CASE} (a claim is paid for damage as well as loss; 068, 147, 149 say lost)`,
  "142": CASE,
  "148": "Package Information Unavailable: nothing to read; the type decides",
  "153": "an updated delivery time: the estimate changes, the parcel is where its type says",
  "154": "an updated delivery date: the estimate changes, the parcel is where its type says",
  "155": "a delivery photo: comes with the delivery (type D)",
  "156": "Commercial Inside Release: a delivery instruction at a business; the delivery is type D",
  "158": MOVING,
  "159": MOVING,
  "163": "Package Information Unavailable: nothing to read; the type decides",
  "164": MOVING,
  "165": MOVING,
  "166": `Shipment Ready for Roadie (UPS's delivery partner): ${MOVING}`,
};

/** Activity types that only UPS freight carries; a parcel at a freight station is moving. */
const FREIGHT_TYPES = new Set(["DO", "DD", "W"]);
const OUT_FOR_DELIVERY_SCANS = new Set(["OT", "OD"]);
const PICKED_UP_SCANS = new Set(["OR", "PU"]);

export function upsTrackerStatus(status: UpsStatus | null | undefined): TrackerStatus {
  const type = (status?.type ?? "").trim().toUpperCase();
  const scan = (status?.code ?? "").trim().toUpperCase();
  // UPS's list of these codes is unpadded ("6") while answers pad them ("006"): compare padded. Padding cannot turn
  // anything else into one of the table's three digits, so it needs no check that the code is digits.
  const code = (status?.statusCode ?? "").trim().padStart(3, "0");
  const byCode = Object.hasOwn(UPS_STATUS_BY_CODE, code) ? UPS_STATUS_BY_CODE[code] : undefined;

  // A "delivery" to an Access Point or a post office is the parcel waiting there for the recipient.
  if (type === "D") return byCode === "ready_for_pickup" ? byCode : "delivered";
  if (type === "MV") return "cancelled";
  if (byCode) return byCode;
  if (type === "M") return "pending";
  if (type === "X") return "on_hold";
  if (PICKED_UP_SCANS.has(scan)) return "picked_up";
  if (type === "I" || type === "U" || FREIGHT_TYPES.has(type)) {
    return OUT_FOR_DELIVERY_SCANS.has(scan) ? "out_for_delivery" : "in_transit";
  }
  return "unknown";
}
