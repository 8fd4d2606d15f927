import { describe, expect, it, vi } from "vitest";
import type { TrackerStatus } from "@/lib/carriers/types";
import { UPS_STATUS_BY_CODE, UPS_TYPE_DECIDES, upsTrackerStatus, type UpsStatus } from "@/lib/carriers/ups/status";
import { UPS_ACTIVITY_TYPES, UPS_STATUS_CODES } from "@/lib/carriers/ups/status-codes";

/**
 * The module loaded afresh, inside the test: its table is built while it loads, and mutation testing sees only a test
 * that loads it reach the table (docs/testing.md, "Incremental runs").
 */
async function fresh() {
  vi.resetModules();
  return import("@/lib/carriers/ups/status");
}
/** UPS activity type, 3-digit status code and scan code → our status (docs/ups.md, "Tracking"). */
const TABLE: [UpsStatus, TrackerStatus, string][] = [
  [{ type: "M", code: "MP", statusCode: "003" }, "pending", "label created (billing information received)"],
  [{ type: "MV", code: "MV", statusCode: "007" }, "cancelled", "label voided"],
  [{ type: "I", statusCode: "007" }, "cancelled", "shipment information voided, by its code"],
  [{ type: "P", code: "P", statusCode: "038" }, "picked_up", "pickup activity"],
  [{ type: "I", code: "PU", statusCode: "038" }, "picked_up", "picked up by UPS"],
  [{ type: "I", code: "OR", statusCode: "005" }, "picked_up", "origin scan"],
  [{ type: "I", code: "DP", statusCode: "005" }, "in_transit", "departed from facility"],
  [{ type: "I", code: "AR", statusCode: "010" }, "in_transit", "arrived at facility"],
  [{ type: "U", code: "UA", statusCode: "005" }, "in_transit", "a Track Alert update"],
  [{ type: "I", code: "OT", statusCode: "021" }, "out_for_delivery", "out for delivery today"],
  [{ type: "I", code: "OF", statusCode: "006" }, "out_for_delivery", "out for delivery (006)"],
  [{ type: "I", statusCode: "37" }, "out_for_delivery", "unpadded status code 37"],
  [{ type: "I", code: "VD", statusCode: "072" }, "out_for_delivery", "loaded on delivery vehicle"],
  [{ type: "D", code: "FS", statusCode: "011" }, "delivered", "delivered"],
  [{ type: "D", code: "KB", statusCode: "011" }, "delivered", "delivered at the door"],
  [{ type: "X", code: "RS", statusCode: "022" }, "delivery_failed", "first delivery attempt"],
  [{ type: "X", statusCode: "023" }, "delivery_failed", "second attempt"],
  [{ type: "X", statusCode: "024" }, "delivery_failed", "final attempt"],
  [{ type: "X", statusCode: "064" }, "delivery_failed", "delivery refused"],
  [{ type: "X", statusCode: "017" }, "ready_for_pickup", "held for customer pickup"],
  [{ type: "I", statusCode: "040" }, "ready_for_pickup", "ready for pickup at an access point"],
  [{ type: "X", statusCode: "033" }, "return_to_sender", "returning to sender"],
  [{ type: "I", statusCode: "036" }, "return_to_sender", "returned to sender"],
  [{ type: "X", statusCode: "046" }, "delivery_delayed", "delay"],
  [{ type: "X", statusCode: "052" }, "delivery_delayed", "severe weather"],
  [{ type: "X", statusCode: "013", code: "SR" }, "on_hold", "any other exception (e.g. held by customs)"],
  [{ type: "X", statusCode: "060" }, "delivery_failed", "delivery attempted"],
  [{ type: "X", statusCode: "069" }, "delivery_failed", "unable to deliver"],
  [{ type: "X", statusCode: "032" }, "delivery_delayed", "adverse weather may cause delay"],
  [{ type: "X", statusCode: "055" }, "delivery_delayed", "rescheduled delivery"],
  [{ type: "X", statusCode: "049" }, "on_hold", "delay: action required"],
  [{ type: "I", statusCode: "067" }, "return_to_sender", "returned to sender by the post office"],
  [{ type: "X", statusCode: "081" }, "return_to_sender", "returned, damage reported"],
  [{ type: "D", statusCode: "161" }, "ready_for_pickup", "delivered to a UPS Access Point: waiting there"],
  [{ type: "I", statusCode: "144" }, "ready_for_pickup", "at the post office for pickup"],
  [{ type: "X", statusCode: "068" }, "lost", "sent to lost and found"],
  [{ type: "X", statusCode: "147" }, "lost", "seized by law enforcement"],
  [{ type: "X", statusCode: "149" }, "lost", "prohibited contents, destroyed"],
  [{ type: "X", statusCode: "059" }, "on_hold", "damage reported (not yet given up)"],
  [{ type: "X", statusCode: "005" }, "on_hold", "an exception with a moving code"],
  [{ type: "I", statusCode: "169" }, "picked_up", "dropped off at an Access Point by the shipper"],
  [{ type: "DO" }, "in_transit", "freight at the origin station"],
  [{ type: "NA" }, "unknown", "not available"],
  [{}, "unknown", "nothing given"],
];

describe("upsTrackerStatus", () => {
  it.each(TABLE)("%o → %s (%s)", async (status, expected) => {
    const { upsTrackerStatus } = await fresh();
    expect(upsTrackerStatus(status)).toBe(expected);
  });

  it("reads types and codes whatever their case and padding", () => {
    expect(upsTrackerStatus({ type: " d " })).toBe("delivered");
    expect(upsTrackerStatus({ type: "i", code: "ot" })).toBe("out_for_delivery");
    expect(upsTrackerStatus({ type: "X", statusCode: " 37 " })).toBe("out_for_delivery");
    expect(upsTrackerStatus(null)).toBe("unknown");
  });
});

/**
 * Every status code of UPS's list (status-codes.ts, unpadded as UPS writes them; UPS's text beside each), read on an
 * in-transit activity (type I): what the code says of its own, or, for the codes that say nothing the type does not
 * (UPS_TYPE_DECIDES), in transit.
 */
const EVERY_UPS_CODE: [string, TrackerStatus][] = [
  ["0", "in_transit"], // Status Not Available
  ["3", "pending"], // Shipment Ready for UPS
  ["5", "in_transit"], // On the Way
  ["6", "out_for_delivery"], // Out for Delivery
  ["7", "cancelled"], // Shipment Information Voided
  ["10", "in_transit"], // On the Way
  ["11", "delivered"], // Delivered
  ["12", "in_transit"], // Clearance in Progress
  ["13", "on_hold"], // Exception
  ["14", "in_transit"], // Clearance Completed
  ["16", "in_transit"], // In Warehouse
  ["17", "ready_for_pickup"], // Held for Customer Pickup
  ["18", "in_transit"], // Delivery Change Requested: Hold for Pickup
  ["19", "on_hold"], // Held for Future Delivery
  ["20", "in_transit"], // Held for Future Delivery Requested
  ["21", "out_for_delivery"], // Out for Delivery
  ["22", "delivery_failed"], // First Attempt Made
  ["23", "delivery_failed"], // Second Delivery Attempted
  ["24", "delivery_failed"], // Final Attempt Made
  ["25", "in_transit"], // On the Way
  ["26", "delivered"], // Delivered by Local Post Office
  ["27", "in_transit"], // Delivery Address Change Requested
  ["28", "in_transit"], // Delivery Address Changed
  ["29", "on_hold"], // Exception: Action Required
  ["30", "on_hold"], // Local Post Office Exception
  ["32", "delivery_delayed"], // Adverse Weather May Cause Delay
  ["33", "return_to_sender"], // Return to Sender Requested
  ["34", "return_to_sender"], // Returned to Sender
  ["35", "return_to_sender"], // Returning to Sender
  ["36", "return_to_sender"], // Returning to Sender: In Transit
  ["37", "out_for_delivery"], // Out for Delivery
  ["38", "picked_up"], // Picked Up by UPS
  ["39", "in_transit"], // On the Way
  ["40", "ready_for_pickup"], // Ready for Customer Pickup
  ["41", "in_transit"], // Service Upgrade Requested
  ["42", "in_transit"], // Service Upgraded
  ["43", "in_transit"], // Voided Pickup
  ["44", "in_transit"], // On the Way to UPS
  ["45", "in_transit"], // On the Way to UPS
  ["46", "delivery_delayed"], // Delay
  ["47", "in_transit"], // On the Way
  ["48", "delivery_delayed"], // Delay
  ["49", "on_hold"], // Delay: Action Required
  ["50", "on_hold"], // Address Information Required
  ["51", "delivery_delayed"], // Delay: Emergency Situation or Severe Weather
  ["52", "delivery_delayed"], // Delay: Severe Weather
  ["53", "delivery_delayed"], // Delay: Severe Weather
  ["54", "in_transit"], // Delivery Change Requested
  ["55", "delivery_delayed"], // Rescheduled Delivery
  ["56", "in_transit"], // Service Upgrade Requested
  ["57", "in_transit"], // On the Way to a Local UPS Access Point™
  ["58", "on_hold"], // Clearance Information Required
  ["59", "on_hold"], // Damage Reported
  ["60", "delivery_failed"], // Delivery Attempted
  ["61", "delivery_failed"], // Delivery Attempted: Adult Signature Required
  ["62", "delivery_failed"], // Delivery Attempted: Funds Required
  ["63", "in_transit"], // Delivery Change Completed
  ["64", "delivery_failed"], // Delivery Refused
  ["65", "in_transit"], // Pickup Attempted
  ["66", "delivery_failed"], // Post Office Delivery Attempted
  ["67", "return_to_sender"], // Returned to Sender by Post Office
  ["68", "lost"], // Sent to Lost and Found
  ["69", "delivery_failed"], // Unable to Deliver
  ["70", "in_transit"], // Package not at UPS Access Point™ yet
  ["71", "in_transit"], // Preparing for Delivery
  ["72", "out_for_delivery"], // Loaded on Delivery Vehicle
  ["73", "in_transit"], // In Transit to UPS Delivery Partner
  ["74", "in_transit"], // UPS Delivery Partner has Shipment
  ["75", "in_transit"], // Scheduled for Delivery
  ["76", "on_hold"], // UPS Delivery Partner Exception
  ["77", "pending"], // Scheduled for Pickup Today
  ["78", "out_for_delivery"], // Your Driver is Arriving Soon!
  ["79", "pending"], // Order Processed: In Transit to UPS
  ["80", "pending"], // Order Processed: Ready for UPS
  ["81", "return_to_sender"], // Returned - Damage Reported
  ["82", "in_transit"], // Delivery Instructions Received
  ["83", "on_hold"], // Held
  ["84", "in_transit"], // Cleared
  ["85", "on_hold"], // Held for COD Payment
  ["86", "delivery_delayed"], // Delay
  ["87", "in_transit"], // On the Way
  ["88", "in_transit"], // Test
  ["89", "out_for_delivery"], // Out for Delivery
  ["90", "delivery_delayed"], // Delay
  ["91", "out_for_delivery"], // Out for Delivery
  ["92", "in_transit"], // Customs Clearance in Progress
  ["93", "on_hold"], // Premier Recovery In Progress
  ["94", "in_transit"], // Premier Recovery Completed
  ["95", "in_transit"], // Additional Attempt Requested
  ["96", "in_transit"], // Address Change Confirmed
  ["97", "in_transit"], // Address Change Requested
  ["98", "in_transit"], // Deliver to Original Address Requested
  ["99", "in_transit"], // Deliver to Original Address Confirmed
  ["100", "in_transit"], // Hold at UPS Access Point™ Confirmed
  ["101", "in_transit"], // Hold at UPS Access Point™ Requested
  ["102", "in_transit"], // Hold for Courier Requested
  ["103", "in_transit"], // Hold for Courier Confirmed
  ["104", "in_transit"], // Hold for Instructions Confirmed
  ["105", "in_transit"], // Hold for Instructions Requested
  ["106", "in_transit"], // Hold for Pickup Confirmed
  ["107", "in_transit"], // Hold for Pickup Requested
  ["108", "in_transit"], // Hold for Pickup Today Confirmed
  ["109", "in_transit"], // Hold for Pickup Today Requested
  ["110", "in_transit"], // Refrigeration Confirmed
  ["111", "in_transit"], // Refrigeration Requested
  ["112", "in_transit"], // Re-Ice Confirmed
  ["113", "in_transit"], // Re-Ice Requested
  ["114", "in_transit"], // Request Canceled
  ["115", "in_transit"], // Reschedule Delivery Confirmed
  ["116", "in_transit"], // Reschedule Delivery Requested
  ["117", "in_transit"], // Return by Saturday Confirmed
  ["118", "return_to_sender"], // Return to Sender Confirmed
  ["119", "return_to_sender"], // Return to Sender Requested
  ["120", "in_transit"], // Saturday Delivery Confirmed
  ["121", "in_transit"], // Saturday Delivery Requested
  ["122", "in_transit"], // Upgrade Confirmed
  ["123", "on_hold"], // Pending Release From Non-UPS Broker
  ["124", "on_hold"], // Clearance Information Needed
  ["125", "on_hold"], // Clearance Information Needed
  ["126", "on_hold"], // Pending Government Agency Release
  ["127", "in_transit"], // Investigation Closed
  ["128", "in_transit"], // Investigation Canceled
  ["129", "in_transit"], // Investigation Opened
  ["130", "in_transit"], // Claim in Progress
  ["131", "in_transit"], // Final Pickup Attempted
  ["132", "delivery_delayed"], // Airport Security Delay
  ["133", "in_transit"], // Return Label Left With Customer
  ["134", "in_transit"], // Cleared Import Customs
  ["135", "in_transit"], // Second Pickup Attempted
  ["136", "in_transit"], // Delivery Rescheduled for Saturday
  ["137", "in_transit"], // Transferred to UPS Delivery Partner
  ["138", "in_transit"], // Awaiting Scheduled Departure
  ["139", "on_hold"], // Security Access Required
  ["140", "in_transit"], // Claim Paid - Claim Payment Has Been Processed.
  ["141", "on_hold"], // Incomplete Documentation Received
  ["142", "in_transit"], // Claim Voided
  ["143", "delivered"], // Delivered to Agent
  ["144", "ready_for_pickup"], // Delivered to Post Office for Pickup
  ["145", "delivery_failed"], // Delivery Attempted
  ["146", "out_for_delivery"], // Out for Delivery
  ["147", "lost"], // Seized by Law Enforcement, No Longer in UPS possession
  ["148", "in_transit"], // Package Information Unavailable
  ["149", "lost"], // Prohibited Contents, Package Destroyed No Longer in UPS possession
  ["153", "in_transit"], // Updated Delivery Time
  ["154", "in_transit"], // Updated Delivery Date
  ["155", "in_transit"], // Delivery Photo
  ["156", "in_transit"], // Commercial Inside Release
  ["157", "pending"], // Shipment Ready for UPS
  ["158", "in_transit"], // On the Way
  ["159", "in_transit"], // On the Way
  ["160", "picked_up"], // We Have Your Package
  ["161", "ready_for_pickup"], // Delivered to UPS Access Point
  ["162", "out_for_delivery"], // Out for Delivery
  ["163", "in_transit"], // Package Information Unavailable
  ["164", "in_transit"], // On the Way
  ["165", "in_transit"], // On the Way
  ["166", "in_transit"], // Shipment Ready for Roadie
  ["167", "picked_up"], // Dropped off at UPS Store by Customer
  ["168", "picked_up"], // Dropped off at Retail Location by Customer
  ["169", "picked_up"], // Dropped off at a UPS Access Point by Customer
];

describe("every UPS status code on an in-transit activity", () => {
  it.each(EVERY_UPS_CODE)("%s → %s", async (code, status) => {
    const { upsTrackerStatus } = await fresh();
    expect(upsTrackerStatus({ type: "I", statusCode: code.padStart(3, "0") })).toBe(status);
  });

  it("is every code of UPS's list, once", () => {
    expect(EVERY_UPS_CODE.map(([code]) => code)).toEqual(Object.keys(UPS_STATUS_CODES));
  });
});

/** UPS's list (status-codes.ts) is unpadded; answers and our table pad to three digits. */
const upsList = Object.keys(UPS_STATUS_CODES).map((c) => c.padStart(3, "0"));
const byCode = Object.keys(UPS_STATUS_BY_CODE);
const deferred = Object.keys(UPS_TYPE_DECIDES);

describe("the UPS status table against UPS's own lists (status-codes.ts)", () => {
  it("maps no code UPS does not list", () => {
    expect([...byCode, ...deferred].filter((c) => !upsList.includes(c))).toEqual([]);
    expect(byCode.filter((c) => deferred.includes(c))).toEqual([]);
  });

  it(`leaves none of UPS's ${upsList.length} codes unmapped: ${byCode.length} by code, ${deferred.length} by activity type with a reason`, () => {
    expect(upsList.filter((c) => !byCode.includes(c) && !deferred.includes(c))).toEqual([]);
    for (const reason of Object.values(UPS_TYPE_DECIDES)) expect(reason.length).toBeGreaterThan(20);
  });

  it("reads every activity type UPS lists, and a code-less one by its type alone", () => {
    const byType = Object.fromEntries(Object.keys(UPS_ACTIVITY_TYPES).map((t) => [t, upsTrackerStatus({ type: t })]));
    expect(byType).toEqual({
      D: "delivered",
      I: "in_transit",
      M: "pending",
      MV: "cancelled",
      X: "on_hold",
      DO: "in_transit",
      DD: "in_transit",
      W: "in_transit",
      NA: "unknown",
      U: "in_transit",
    });
  });
});
