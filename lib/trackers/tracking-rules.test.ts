import { describe, expect, it } from "vitest";
import { TRACKER_STATUSES } from "@/lib/carriers/types";
import {
  eventFingerprint,
  failureRetryAt,
  FIRST_REFRESH_AFTER_PURCHASE_MS,
  isDeliveredBack,
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

  it("ends a return only when the parcel is delivered back, not while it travels", () => {
    expect(isDeliveredBack("delivered", "return_to_sender")).toBe(true);
    expect(isDeliveredBack("in_transit", "return_to_sender")).toBe(false);
    expect(isDeliveredBack("return_to_sender", "return_to_sender")).toBe(false);
    expect(isDeliveredBack("delivered", "out_for_delivery")).toBe(false);
    expect(mergedStatus("in_transit", null, "return_to_sender")).toBe("in_transit");
  });

  it("asks again after each status's interval as docs/api.md lists it (Next refresh)", () => {
    const minutes = Object.fromEntries(
      TRACKER_STATUSES.map((s) => {
        const at = nextRefreshAt(s, now, { random: () => 0.5 });
        return [s, at && (at.getTime() - now.getTime()) / 60_000];
      }),
    );
    expect(minutes).toEqual({
      out_for_delivery: 15,
      delivery_failed: 30,
      in_transit: 60,
      picked_up: 60,
      delivery_delayed: 60,
      on_hold: 120,
      ready_for_pickup: 120,
      pending: 240,
      unknown: 240,
      return_to_sender: 240,
      delivered: null,
      lost: null,
      cancelled: null,
    });
    // "a new label's tracker first after 15 min"
    expect(FIRST_REFRESH_AFTER_PURCHASE_MS).toBe(15 * 60_000);
  });

  it("retries a failed refresh after 15 min, doubling up to 12 h, ±10 % jitter, scaled", () => {
    const after = (failures: number, r = 0.5, timeScale = 1) =>
      (failureRetryAt(failures, now, { random: () => r, timeScale }).getTime() - now.getTime()) / 60_000;
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map((f) => after(f))).toEqual([15, 30, 60, 120, 240, 480, 720, 720, 720]);
    expect(after(0)).toBe(15);
    expect(after(1, 0)).toBeCloseTo(13.5);
    expect(after(1, 1)).toBeCloseTo(16.5);
    expect(after(3, 0.75)).toBeCloseTo(63);
    expect(after(3, 0.5, 1 / 60)).toBeCloseTo(1);
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
    // Text moved from one field to the next is another event.
    expect(eventFingerprint({ ...e, code: "XA", description: "rrived" })).not.toBe(eventFingerprint(e));
    // Stored events are matched against it: a fingerprint computed another way would store every known event again.
    expect(eventFingerprint(e)).toBe("682157c01f29c6f77b9b9eae1a5212f7");
  });

  it("counts 90 silent days from the newest event, or from creation", () => {
    const created = new Date(now.getTime() - RETIRE_AFTER_MS - 1);
    expect(isStale(null, created, now)).toBe(true);
    expect(isStale(new Date(now.getTime() - 86_400_000), created, now)).toBe(false);
    expect(isStale(null, new Date(now.getTime() - 86_400_000), now)).toBe(false);
    expect(isStale(new Date(now.getTime() - RETIRE_AFTER_MS), created, now)).toBe(true);
    expect(isStale(new Date(now.getTime() - RETIRE_AFTER_MS + 1), created, now)).toBe(false);
  });
});
