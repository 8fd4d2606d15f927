import { describe, expect, it } from "vitest";
import { isDay, isTimeZone, startOfDay } from "./zoned-day";

describe("days in a time zone", () => {
  it("starts a day at the zone's midnight", () => {
    expect(startOfDay("2026-11-23", "UTC").toISOString()).toBe("2026-11-23T00:00:00.000Z");
    expect(startOfDay("2026-11-23", "America/Chicago").toISOString()).toBe("2026-11-23T06:00:00.000Z");
    expect(startOfDay("2026-07-01", "Europe/Paris").toISOString()).toBe("2026-06-30T22:00:00.000Z");
    expect(startOfDay("2026-11-23", "Asia/Kolkata").toISOString()).toBe("2026-11-22T18:30:00.000Z");
  });

  it("follows daylight saving changes and month ends when shifting days", () => {
    // US clocks go back on 2026-11-01: the day after starts at 06:00Z, the day itself at 05:00Z.
    expect(startOfDay("2026-11-01", "America/New_York").toISOString()).toBe("2026-11-01T04:00:00.000Z");
    expect(startOfDay("2026-11-01", "America/New_York", 1).toISOString()).toBe("2026-11-02T05:00:00.000Z");
    expect(startOfDay("2026-03-08", "America/New_York").toISOString()).toBe("2026-03-08T05:00:00.000Z");
    expect(startOfDay("2026-01-31", "UTC", 1).toISOString()).toBe("2026-02-01T00:00:00.000Z");
  });

  it("knows real days and zones", () => {
    expect([isDay("2026-02-28"), isDay("2026-02-30"), isDay("2026-2-3"), isDay("0000-01-01")]).toEqual([
      true,
      false,
      false,
      false,
    ]);
    expect([isTimeZone("Europe/Paris"), isTimeZone("Mars/Olympus"), isTimeZone("UTC")]).toEqual([true, false, true]);
  });
});
