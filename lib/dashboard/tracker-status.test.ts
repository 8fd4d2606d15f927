import { describe, expect, it } from "vitest";
import { TRACKER_STATUSES, type TrackerStatus } from "@/lib/carriers/types";
import { TRACKER_TABS, TRACKER_TAB_KEYS, trackerProgress, trackerTabCount } from "./tracker-status";

const counts = (given: Partial<Record<TrackerStatus, number>>) =>
  Object.fromEntries(TRACKER_STATUSES.map((s) => [s, given[s] ?? 0])) as Record<TrackerStatus, number>;

describe("tracker tabs", () => {
  it("count each tab's statuses from one grouped count", () => {
    const c = counts({
      pending: 1,
      picked_up: 2,
      in_transit: 3,
      out_for_delivery: 4,
      delivered: 5,
      on_hold: 6,
      delivery_delayed: 7,
      delivery_failed: 8,
      return_to_sender: 9,
      ready_for_pickup: 10,
      cancelled: 11,
      unknown: 12,
      lost: 13,
    });
    expect(Object.fromEntries(TRACKER_TAB_KEYS.map((t) => [t, trackerTabCount(t, c)]))).toEqual({
      in_transit: 6,
      out_for_delivery: 4,
      delivered: 5,
      exceptions: 43,
      all: 91,
    });
  });

  it("never put a status in two tabs besides All", () => {
    const seen = TRACKER_TAB_KEYS.flatMap((t) => TRACKER_TABS[t].statuses ?? []);
    expect(new Set(seen).size).toBe(seen.length);
  });
});

describe("trackerProgress", () => {
  it("follows the usual journey", () => {
    expect(trackerProgress("pending", ["pending"])).toEqual({ reached: 0, detour: null });
    expect(trackerProgress("picked_up", ["picked_up", "pending"])).toEqual({ reached: 1, detour: null });
    expect(trackerProgress("out_for_delivery", ["out_for_delivery", "in_transit"])).toEqual({
      reached: 3,
      detour: null,
    });
    expect(trackerProgress("delivered", [])).toEqual({ reached: 4, detour: null });
  });

  it("keeps the furthest step reached when the parcel is held, delayed, failed or returning", () => {
    expect(trackerProgress("on_hold", ["on_hold", "in_transit", "picked_up", "pending"])).toEqual({
      reached: 2,
      detour: "on_hold",
    });
    expect(trackerProgress("delivery_failed", ["delivery_failed", "out_for_delivery", "in_transit"])).toEqual({
      reached: 3,
      detour: "delivery_failed",
    });
    expect(trackerProgress("return_to_sender", ["return_to_sender", "picked_up"]).detour).toBe("return_to_sender");
    expect(trackerProgress("lost", ["lost", "in_transit", "picked_up"])).toEqual({ reached: 2, detour: "lost" });
  });

  it("an unknown status without events is at the start, with no detour", () => {
    expect(trackerProgress("unknown", [])).toEqual({ reached: 0, detour: null });
  });
});
