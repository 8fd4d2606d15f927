import { describe, expect, it } from "vitest";
import { carrierShipDate, isPastDate, localClock, localDateTime, originTimeZone } from "@/lib/carriers/ship-date";

const at = (iso: string) => new Date(iso);
const chicago = { date: null, time_zone: "America/Chicago" };

describe("originTimeZone", () => {
  it("splits the countries of several zones by state or province", () => {
    expect(originTimeZone({ country_code: "US", state_code: "IL" })).toBe("America/Chicago");
    expect(originTimeZone({ country_code: "us", state_code: "az" })).toBe("America/Phoenix");
    expect(originTimeZone({ country_code: "US", state_code: "CA" })).toBe("America/Los_Angeles");
    expect(originTimeZone({ country_code: "CA", state_code: "BC" })).toBe("America/Vancouver");
    expect(originTimeZone({ country_code: "AU", state_code: "NSW" })).toBe("Australia/Sydney");
    expect(originTimeZone({ country_code: "AU", state_code: "WA" })).toBe("Australia/Perth");
    expect(originTimeZone({ country_code: "MX", state_code: "BCN" })).toBe("America/Tijuana");
  });

  it("takes a one-zone country's zone from Intl, a several-zone country's main one without a state", () => {
    expect(originTimeZone({ country_code: "FR", state_code: "" })).toBe("Europe/Paris");
    expect(originTimeZone({ country_code: "JP", state_code: "" })).toBe("Asia/Tokyo");
    expect(originTimeZone({ country_code: "ES", state_code: "" })).toBe("Europe/Madrid");
    expect(originTimeZone({ country_code: "US", state_code: "" })).toBe("America/New_York");
    // A US quote may name only the ZIP code: its region's zone.
    expect(originTimeZone({ country_code: "US", state_code: "", postal_code: "60607" })).toBe("America/Chicago");
    expect(originTimeZone({ country_code: "US", state_code: "", postal_code: "94105" })).toBe("America/Los_Angeles");
    expect(originTimeZone({ country_code: "ZZ", state_code: "" })).toBe("UTC");
  });
});

describe("carrierShipDate", () => {
  it("ships a Friday afternoon in Chicago on Friday", () => {
    // 16:00 CST is 22:00 UTC.
    expect(carrierShipDate(chicago, at("2026-11-20T22:00:00Z"))).toBe("2026-11-20");
  });

  it("ships a Friday evening in Chicago (Saturday in UTC) on Monday, past the 17:00 cut-off", () => {
    // 19:00 CST is 01:00 UTC on Saturday: never a Saturday ship date.
    expect(carrierShipDate(chicago, at("2026-11-21T01:00:00Z"))).toBe("2026-11-23");
    // A later cut-off keeps it on Friday.
    expect(carrierShipDate(chicago, at("2026-11-21T01:00:00Z"), "20:00")).toBe("2026-11-20");
  });

  it("moves a weekday evening to the next day, a weekday morning stays", () => {
    // Tuesday 17:00 CST exactly: the cut-off has passed.
    expect(carrierShipDate(chicago, at("2026-11-17T23:00:00Z"))).toBe("2026-11-18");
    expect(carrierShipDate(chicago, at("2026-11-17T14:00:00Z"))).toBe("2026-11-17");
  });

  it("ships a Sunday in Sydney (Saturday in UTC) on Monday", () => {
    // 01:00 AEDT on Sunday is 14:00 UTC on Saturday.
    expect(carrierShipDate({ date: null, time_zone: "Australia/Sydney" }, at("2026-11-21T14:00:00Z"))).toBe(
      "2026-11-23",
    );
    // 08:00 AEDT on Monday is still Sunday in UTC: Monday it is.
    expect(carrierShipDate({ date: null, time_zone: "Australia/Sydney" }, at("2026-11-22T21:00:00Z"))).toBe(
      "2026-11-23",
    );
  });

  it("keeps a client's future business day, moves a weekend one to Monday, and a past one to today", () => {
    const now = at("2026-11-17T14:00:00Z");
    expect(carrierShipDate({ ...chicago, date: "2026-11-19" }, now)).toBe("2026-11-19");
    expect(carrierShipDate({ ...chicago, date: "2026-11-21" }, now)).toBe("2026-11-23");
    expect(carrierShipDate({ ...chicago, date: "2026-11-10" }, now)).toBe("2026-11-17");
    // A future day is not moved by today's cut-off.
    expect(carrierShipDate({ ...chicago, date: "2026-11-18" }, at("2026-11-18T03:00:00Z"))).toBe("2026-11-18");
  });
});

describe("localClock and isPastDate", () => {
  it("read the origin's calendar, not UTC's", () => {
    expect(localClock(at("2026-11-21T01:00:00Z"), "America/Chicago")).toEqual({ date: "2026-11-20", minutes: 1140 });
    expect(isPastDate("2026-11-20", at("2026-11-21T01:00:00Z"), "America/Chicago")).toBe(false);
    expect(isPastDate("2026-11-20", at("2026-11-21T01:00:00Z"), "Europe/London")).toBe(true);
  });
});

describe("localDateTime", () => {
  it("answers again from the same minute, and anew from the next minute and from another zone", () => {
    const first = localDateTime(at("2026-11-20T22:59:00.000Z"), "America/Chicago");
    expect(first).toEqual({ date: "2026-11-20", time: "16:59" });
    // A caller changing its answer does not change the next one.
    first.time = "00:00";
    expect(localDateTime(at("2026-11-20T22:59:59.999Z"), "America/Chicago")).toEqual({
      date: "2026-11-20",
      time: "16:59",
    });
    expect(localDateTime(at("2026-11-20T23:00:00.000Z"), "America/Chicago")).toEqual({
      date: "2026-11-20",
      time: "17:00",
    });
    expect(localDateTime(at("2026-11-20T23:00:00.000Z"), "Asia/Kolkata")).toEqual({
      date: "2026-11-21",
      time: "04:30",
    });
    // Back to an earlier minute (a test's clock, an old event): not the last answer.
    expect(localDateTime(at("2026-11-20T22:58:30.000Z"), "America/Chicago")).toEqual({
      date: "2026-11-20",
      time: "16:58",
    });
  });

  it("refuses an unknown zone every time", () => {
    expect(() => localDateTime(at("2026-11-20T23:00:00Z"), "Mars/Olympus")).toThrow(RangeError);
    expect(() => localDateTime(at("2026-11-20T23:00:00Z"), "Mars/Olympus")).toThrow(RangeError);
  });
});
