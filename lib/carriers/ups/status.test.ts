import { describe, expect, it } from "vitest";
import type { TrackerStatus } from "@/lib/carriers/types";
import { upsTrackerStatus, type UpsStatus } from "@/lib/carriers/ups/status";

/** carriers.md §1.4: UPS activity type, 3-digit status code and scan code → our status. */
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
