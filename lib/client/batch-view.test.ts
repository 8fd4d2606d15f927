import { describe, expect, it } from "vitest";
import type { Batch } from "@/lib/schemas/batch";
import { isWorking, labelsToBuy, partCount, progressOf, totalText, waitsForDecision } from "./batch-view";

const counts = (c: Partial<Batch["counts"]>): Batch["counts"] => ({
  queued: 0,
  rated: 0,
  needs_decision: 0,
  skipped: 0,
  purchasing: 0,
  purchased: 0,
  failed: 0,
  ...c,
});

describe("what the batch page shows", () => {
  it("polls only while rows change by themselves", () => {
    expect(isWorking("validating")).toBe(true);
    expect(isWorking("purchasing")).toBe(true);
    expect(isWorking("ready")).toBe(false);
    expect(isWorking("completed_with_errors")).toBe(false);
  });

  it("stops polling a batch that only waits for a decision", () => {
    const held = { state: "purchasing" as const, counts: counts({ needs_decision: 2, purchased: 5 }), held: 2 };
    expect(waitsForDecision(held)).toBe(true);
    expect(waitsForDecision({ ...held, counts: counts({ needs_decision: 2, rated: 1 }) })).toBe(false);
    expect(waitsForDecision({ ...held, counts: counts({ needs_decision: 2, purchasing: 1 }) })).toBe(false);
    expect(waitsForDecision({ ...held, state: "ready" })).toBe(false);
    expect(waitsForDecision({ ...held, held: 0, counts: counts({ purchased: 5 }) })).toBe(false);
  });

  it("counts the labels a confirmation buys, held rows only when included", () => {
    expect(labelsToBuy({ counts: counts({ rated: 7, needs_decision: 3 }), held: 3 }, false)).toBe(7);
    expect(labelsToBuy({ counts: counts({ rated: 7, needs_decision: 3 }), held: 3 }, true)).toBe(10);
  });

  it("says the total per currency, and nothing before the dry run", () => {
    expect(totalText({ summary: null })).toBeNull();
    expect(
      totalText({
        summary: {
          totals: [
            { currency: "USD", amount: 12.5 },
            { currency: "EUR", amount: 3 },
          ],
          services: [],
        },
      }),
    ).toMatch(/^\$12\.50 \+ €3\.00$/);
  });

  it("measures progress by rows checked while validating, by rows settled while buying", () => {
    expect(progressOf({ state: "validating", row_count: 4, counts: counts({ queued: 3, failed: 1 }) })).toBe(25);
    expect(
      progressOf({ state: "purchasing", row_count: 4, counts: counts({ rated: 2, purchased: 1, failed: 1 }) }),
    ).toBe(50);
    expect(progressOf({ state: "ready", row_count: 4, counts: counts({ rated: 3, failed: 1 }) })).toBe(100);
    expect(progressOf({ state: "completed", row_count: 0, counts: counts({}) })).toBe(100);
    expect(progressOf({ state: "completed", row_count: 4, counts: counts({ purchased: 3, skipped: 1 }) })).toBe(100);
  });

  it("splits the labels into parts of 100", () => {
    expect(partCount(0)).toBe(1);
    expect(partCount(100)).toBe(1);
    expect(partCount(101)).toBe(2);
  });
});
