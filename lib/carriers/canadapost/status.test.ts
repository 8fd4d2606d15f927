import { describe, expect, it, vi } from "vitest";
import {
  CANADAPOST_STATUS_BY_EVENT,
  canadapostStatus,
  normalizeEventIdentifier,
} from "@/lib/carriers/canadapost/status";
import { KARRIO_TRACKING_STATUS } from "@/lib/carriers/canadapost/status-codes";
import { TRACKER_STATUSES, type TrackerStatus } from "@/lib/carriers/types";

// Event identifiers as Canada Post writes them (zero-padded), one or more per status.
const TABLE: [string, TrackerStatus | null][] = [
  ["3000", "pending"],
  ["1300", "pending"],
  ["0100", "picked_up"],
  ["0107", "picked_up"],
  ["1400", "picked_up"],
  ["0170", "in_transit"],
  ["0174", "out_for_delivery"],
  ["0500", "out_for_delivery"],
  ["1496", "delivered"],
  ["1408", "delivered"],
  ["1441", "delivered"],
  ["0118", "ready_for_pickup"],
  ["1701", "ready_for_pickup"],
  ["0150", "delivery_failed"],
  ["0167", "delivery_failed"],
  ["4650", "delivery_failed"],
  ["0159", "delivery_delayed"],
  ["2412", "delivery_delayed"],
  ["0117", "on_hold"],
  ["0810", "on_hold"],
  ["4700", "on_hold"],
  ["0020", null],
  ["", "unknown"],
];

describe("Canada Post event identifiers", () => {
  it.each(TABLE)("%s → %s", (id, status) => {
    expect(canadapostStatus(id)).toBe(status);
  });

  it("normalizes leading zeros and spaces before the lookup, both ways", () => {
    expect(normalizeEventIdentifier(" 0174 ")).toBe("174");
    expect(normalizeEventIdentifier("000")).toBe("0");
    expect(canadapostStatus(" 174")).toBe(canadapostStatus("0174"));
    expect(canadapostStatus("00001496")).toBe("delivered");
    // No identifier at all, or only spaces: nothing to read.
    expect(canadapostStatus(null)).toBe("unknown");
    expect(canadapostStatus("   ")).toBe("unknown");
  });

  it("maps every identifier karrio's table lists, to the status it lists it under (coverage)", async () => {
    // Loaded afresh, inside the test: the table is built while the module loads, and mutation testing sees only a
    // test that loads it reach the table (docs/testing.md, "Incremental runs").
    vi.resetModules();
    const { CANADAPOST_STATUS_BY_EVENT } = await import("@/lib/carriers/canadapost/status");
    for (const [status, codes] of Object.entries(KARRIO_TRACKING_STATUS)) {
      expect(TRACKER_STATUSES).toContain(status);
      for (const code of codes ?? []) expect([code, CANADAPOST_STATUS_BY_EVENT.get(code)]).toEqual([code, status]);
    }
  });

  it("holds no identifier but karrio's and the additions it names", () => {
    const listed = new Set(Object.values(KARRIO_TRACKING_STATUS).flatMap((c) => c ?? []));
    const extra = [...CANADAPOST_STATUS_BY_EVENT.keys()].filter((c) => !listed.has(c));
    expect(extra.sort()).toEqual(["1300", "20", "3000"]);
    // No code is listed under two statuses (a table keyed by code would keep the last silently).
    const seen = new Map<string, string>();
    for (const [status, codes] of Object.entries(KARRIO_TRACKING_STATUS)) {
      for (const code of codes ?? []) {
        expect(seen.get(code) ?? status).toBe(status);
        seen.set(code, status);
      }
    }
  });

  it("maps every identifier the emulator's Canada Post sends", () => {
    for (const id of ["3000", "0100", "0170", "0174", "1496"]) expect(canadapostStatus(id)).not.toBeNull();
  });
});
