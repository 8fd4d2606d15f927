import { describe, expect, it } from "vitest";
import type { TrackerStatus } from "@/lib/carriers/types";
import { UPS_STATUS_BY_CODE, UPS_TYPE_DECIDES, upsTrackerStatus, type UpsStatus } from "@/lib/carriers/ups/status";
import { UPS_ACTIVITY_TYPES, UPS_STATUS_CODES } from "@/lib/carriers/ups/status-codes";

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
  it.each(TABLE)("%o → %s (%s)", (status, expected) => {
    expect(upsTrackerStatus(status)).toBe(expected);
  });

  it("reads types and codes whatever their case and padding", () => {
    expect(upsTrackerStatus({ type: " d " })).toBe("delivered");
    expect(upsTrackerStatus({ type: "i", code: "ot" })).toBe("out_for_delivery");
    expect(upsTrackerStatus(null)).toBe("unknown");
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
