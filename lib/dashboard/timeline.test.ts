import { describe, expect, it } from "vitest";
import { timelineDays } from "@/lib/dashboard/timeline";

const event = (date: string, time: string, description: string) => ({ date, time, description });

describe("timelineDays", () => {
  it("groups events under their own date and keeps the carrier's order (newest first)", () => {
    const days = timelineDays([
      event("2024-03-05", "09:10", "Delivered"),
      event("2024-03-05", "07:02", "Out for delivery"),
      event("2024-03-04", "22:15", "Departed facility"),
    ]);
    expect(days.map((d) => [d.label, d.events.map((e) => e.description)])).toEqual([
      ["Tue, Mar 5, 2024", ["Delivered", "Out for delivery"]],
      ["Mon, Mar 4, 2024", ["Departed facility"]],
    ]);
  });

  it("never re-sorts scans from different zones: a date met again starts a new group", () => {
    const days = timelineDays([
      event("2024-03-05", "01:00", "Arrived (Tokyo)"),
      event("2024-03-04", "20:00", "Departed (Los Angeles)"),
      event("2024-03-05", "00:30", "Export scan (Los Angeles, next day local)"),
    ]);
    expect(days.map((d) => d.date)).toEqual(["2024-03-05", "2024-03-04", "2024-03-05"]);
  });
});
