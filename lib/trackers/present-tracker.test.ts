import { describe, expect, it } from "vitest";
import { presentTracker, type EventFields } from "./present-tracker";

const at = (iso: string, code: string, fingerprint = code, status: EventFields["status"] = "in_transit") => ({
  occurredAt: new Date(iso),
  fingerprint,
  date: iso.slice(0, 10),
  time: iso.slice(11, 16),
  description: code,
  location: "Austin, TX, US",
  code,
  status,
});

const tracker = {
  id: null,
  carrierName: "sandbox",
  carrierId: "sandbox",
  trackingNumber: "SBX1",
  status: "in_transit" as const,
  testMode: true,
  estimatedDelivery: null,
};

describe("presentTracker", () => {
  it("answers events newest first; events of one instant keep their order; a repeated event once, as first seen", () => {
    const events = [
      at("2024-03-04T10:00:00Z", "A"),
      at("2024-03-04T12:00:00Z", "B2"),
      at("2024-03-04T12:00:00Z", "B1"),
      at("2024-03-04T10:00:00Z", "A", "A", "delivered"), // the same scan again, as a later page repeats it
    ];
    const out = presentTracker(tracker, events);
    expect(out.events.map((e) => [e.code, e.status])).toEqual([
      ["B2", "in_transit"],
      ["B1", "in_transit"],
      ["A", "in_transit"],
    ]);
    expect(out).toMatchObject({ delivered: false, id: null, tracking_number: "SBX1" });
  });
});
