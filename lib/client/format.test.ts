import { describe, expect, it } from "vitest";
import {
  dayText,
  formatCalendarDay,
  formatCount,
  formatInstant,
  formatMoney,
  parseInstant,
  recipientName,
} from "./format";

describe("format", () => {
  it("names a recipient by the person, else the company, else says there is no name", () => {
    expect(recipientName({ person_name: "Ann", company_name: "Acme" })).toBe("Ann");
    expect(recipientName({ person_name: "", company_name: "Acme" })).toBe("Acme");
    expect(recipientName({ person_name: null, company_name: null })).toBe("No name");
    expect(recipientName({ person_name: "", company_name: "" }, "an unnamed recipient")).toBe("an unnamed recipient");
  });

  it("writes money in its currency, and an unknown currency as its amount and code", () => {
    expect(formatMoney(12.5, "USD")).toBe("$12.50");
    expect(formatMoney(12.5, "EUR")).toBe("€12.50");
    expect(formatMoney(1, "???")).toBe("1.00 ???");
  });

  it("writes counts with separators", () => {
    expect(formatCount(12480)).toBe("12,480");
  });

  it("writes a calendar day as that day in every time zone, and refuses what is not one", () => {
    expect(formatCalendarDay("2025-06-05")).toBe("Thu, Jun 5");
    expect(formatCalendarDay("2025-06-05", "short")).toBe("Jun 5");
    expect(formatCalendarDay("2025-02-30")).toBeNull();
    expect(formatCalendarDay("not a date")).toBeNull();
    expect(formatCalendarDay("2024-01-01", "full")).toBe("Mon, Jan 1, 2024");
  });

  it("writes a carrier's date as words, and leaves its other text as it is", () => {
    expect(dayText("2024-01-01")).toBe("Mon, Jan 1, 2024");
    expect(dayText("yesterday")).toBe("yesterday");
  });

  it("writes an instant in the zone asked for, naming it when the time shows", () => {
    const at = "2026-11-27 18:54:01.123456+00:00";
    expect(parseInstant(at).toISOString()).toBe("2026-11-27T18:54:01.123Z");
    expect(formatInstant(at, "UTC", "datetime")).toBe("Nov 27, 2026, 6:54 PM UTC");
    expect(formatInstant(at, "UTC", "date")).toBe("Nov 27, 2026");
    expect(formatInstant(at, "America/New_York", "time")).toBe("1:54 PM EST");
    expect(formatInstant(new Date("2026-11-27T23:30:00Z"), "Asia/Tokyo", "date")).toBe("Nov 28, 2026");
  });
});
