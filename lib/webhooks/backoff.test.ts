import { describe, expect, it } from "vitest";
import { MAX_ATTEMPTS, RETRY_DELAYS_MS, nextAttemptAt } from "./backoff";

const t0 = new Date("2026-11-20T10:00:00Z");
const after = (attempts: number, random: number) => nextAttemptAt(attempts, t0, () => random)!.getTime() - t0.getTime();

describe("the retry schedule", () => {
  it("starts with 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and keeps retrying for about three days", () => {
    expect(RETRY_DELAYS_MS.slice(0, 6)).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000]);
    const total = RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
    expect(total / 3_600_000).toBeGreaterThan(70);
    expect(total / 3_600_000).toBeLessThan(80);
    expect(MAX_ATTEMPTS).toBe(RETRY_DELAYS_MS.length + 1);
  });

  it("jitters each delay by at most 10 % either way", () => {
    expect(after(1, 0.5)).toBe(5_000);
    expect(after(1, 0)).toBe(4_500);
    expect(after(1, 1)).toBe(5_500);
    expect(after(4, 0)).toBe(6_480_000);
    expect(after(4, 1)).toBe(7_920_000);
  });

  it("has no next attempt once the schedule is over", () => {
    expect(nextAttemptAt(MAX_ATTEMPTS - 1, t0, () => 0.5)).not.toBeNull();
    expect(nextAttemptAt(MAX_ATTEMPTS, t0, () => 0.5)).toBeNull();
  });
});
