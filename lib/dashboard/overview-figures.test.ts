import { describe, expect, it } from "vitest";
import { dayIn, daysEndingOn, labelsPerMode, overviewFigures } from "./overview-figures";

const row = (day: string, currency: string, labels: number, spend: number, testMode = false) => ({
  day,
  currency,
  labels,
  spend,
  testMode,
});

describe("overview figures", () => {
  it("counts days across month ends and reads today in the clerk's zone", () => {
    expect(daysEndingOn("2031-03-02", 4)).toEqual(["2031-02-27", "2031-02-28", "2031-03-01", "2031-03-02"]);
    const at = new Date("2031-01-03T23:30:00Z");
    expect(dayIn("UTC", at)).toBe("2031-01-03");
    expect(dayIn("Asia/Tokyo", at)).toBe("2031-01-04");
  });

  it("picks the main currency by labels, never adds currencies, and compares this week with the last", () => {
    const days = daysEndingOn("2031-01-30", 30);
    const daily = [
      row("2031-01-30", "USD", 2, 10.1),
      row("2031-01-30", "EUR", 1, 99),
      row("2031-01-24", "USD", 1, 0.2),
      row("2031-01-23", "USD", 3, 7), // 8 days ago: last week
      row("2031-01-10", "USD", 1, 1),
      row("2031-01-30", "USD", 5, 500, true), // test mode
      row("2030-12-01", "USD", 9, 9), // outside the window
    ];
    const f = overviewFigures(daily, false, days);
    expect(f.currency).toBe("USD");
    expect(f.totals).toEqual([
      { currency: "USD", labels: 7, spend: 18.3 },
      { currency: "EUR", labels: 1, spend: 99 },
    ]);
    expect(f.days).toHaveLength(30);
    expect(f.days.at(-1)).toEqual({ day: "2031-01-30", labels: 3, spend: 10.1 });
    expect(f.days.find((d) => d.day === "2031-01-11")).toEqual({ day: "2031-01-11", labels: 0, spend: 0 });
    expect(f.week).toEqual({ labels: 4, spend: 10.3, previousLabels: 3, previousSpend: 7 });
    expect(labelsPerMode(daily)).toEqual({ live: 17, test: 5 });
  });

  it("has no currency without labels", () => {
    const f = overviewFigures([], true, daysEndingOn("2031-01-30", 30));
    expect(f.currency).toBeNull();
    expect(f.week).toEqual({ labels: 0, spend: 0, previousLabels: 0, previousSpend: 0 });
  });
});
