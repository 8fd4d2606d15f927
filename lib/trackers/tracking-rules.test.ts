import { describe, expect, it } from "vitest";
import { TRACKER_STATUSES } from "@/lib/carriers/types";
import {
  eventFingerprint,
  isStale,
  mergedStatus,
  nextRefreshAt,
  REFRESH_INTERVAL_MS,
  RETIRE_AFTER_MS,
  shipmentStatusFor,
} from "./tracking-rules";

const now = new Date("2026-11-21T12:00:00Z");

describe("tracking rules", () => {
  it("maps every tracker status to a shipment status as docs/api.md says", () => {
    const mapped = Object.fromEntries(TRACKER_STATUSES.map((s) => [s, shipmentStatusFor(s)]));
    expect(mapped).toEqual({
      pending: null,
      picked_up: "in_transit",
      in_transit: "in_transit",
      out_for_delivery: "out_for_delivery",
      delivered: "delivered",
      on_hold: "needs_attention",
      delivery_delayed: "needs_attention",
      delivery_failed: "delivery_failed",
      ready_for_pickup: "needs_attention",
      return_to_sender: "delivery_failed",
      lost: "lost",
      cancelled: null,
      unknown: null,
    });
  });

  it("takes the carrier's status, else the newest event's, else the previous one; cancelled sticks", () => {
    expect(mergedStatus("in_transit", "pending", "pending")).toBe("in_transit");
    expect(mergedStatus("unknown", "out_for_delivery", "in_transit")).toBe("out_for_delivery");
    expect(mergedStatus("unknown", null, "in_transit")).toBe("in_transit");
    expect(mergedStatus("unknown", null, null)).toBe("unknown");
    expect(mergedStatus("in_transit", "in_transit", "cancelled")).toBe("cancelled");
    // A return reported delivered reached the sender: still return_to_sender (and final, see recordTrackings).
    expect(mergedStatus("delivered", "delivered", "return_to_sender")).toBe("return_to_sender");
  });

  it("schedules the next refresh from the status, ±10 % jitter, never for final statuses", () => {
    const at = (status: (typeof TRACKER_STATUSES)[number], r: number, timeScale = 1) =>
      nextRefreshAt(status, now, { random: () => r, timeScale })?.getTime();
    expect(at("out_for_delivery", 0.5)).toBe(now.getTime() + 15 * 60_000);
    expect(at("in_transit", 0.5)).toBe(now.getTime() + 60 * 60_000);
    expect(at("pending", 0.5)).toBe(now.getTime() + 4 * 3_600_000);
    expect(at("in_transit", 0)).toBe(now.getTime() + 54 * 60_000);
    expect(at("in_transit", 1)).toBe(now.getTime() + 66 * 60_000);
    expect(at("pending", 0.5, 1 / 360)).toBe(now.getTime() + 40_000);
    expect(at("delivered", 0.5)).toBeUndefined();
    expect(at("cancelled", 0.5)).toBeUndefined();
    expect(at("lost", 0.5)).toBeUndefined();
    expect(at("return_to_sender", 0.5)).toBe(now.getTime() + 4 * 3_600_000);
    expect(REFRESH_INTERVAL_MS.out_for_delivery).toBeLessThan(REFRESH_INTERVAL_MS.in_transit);
    expect(REFRESH_INTERVAL_MS.in_transit).toBeLessThan(REFRESH_INTERVAL_MS.pending);
  });

  it("identifies an event by instant, code, description and location (not by how the instant is written)", () => {
    const e = { occurred_at: "2026-11-20T10:00:00Z", code: "X", description: "Arrived", location: "Austin, TX" };
    expect(eventFingerprint(e)).toBe(eventFingerprint({ ...e, occurred_at: "2026-11-20T11:00:00+01:00" }));
    expect(eventFingerprint(e)).not.toBe(eventFingerprint({ ...e, location: "Dallas, TX" }));
  });

  it("counts 90 silent days from the newest event, or from creation", () => {
    const created = new Date(now.getTime() - RETIRE_AFTER_MS - 1);
    expect(isStale(null, created, now)).toBe(true);
    expect(isStale(new Date(now.getTime() - 86_400_000), created, now)).toBe(false);
    expect(isStale(null, new Date(now.getTime() - 86_400_000), now)).toBe(false);
  });
});
