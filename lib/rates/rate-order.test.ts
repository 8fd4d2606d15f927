import { describe, expect, it } from "vitest";
import { bestRate, type RateFacts } from "./rate-order";

const r = (totalCharge: number, transitDays: number, estimatedDelivery: string | null = null): RateFacts => ({
  totalCharge,
  transitDays,
  estimatedDelivery,
});
const id = (x: RateFacts) => x;

describe("the one rule for cheapest and fastest", () => {
  it("compares money in cents and breaks ties by speed, and speed by date then money", () => {
    const a = r(0.1 + 0.2, 5);
    const b = r(0.3, 3);
    expect(bestRate([a, b], "cheapest", id)).toBe(b);
    const c = r(12, 2, "2025-06-06");
    const d = r(15, 2, "2025-06-05");
    const e = r(11, 2, "2025-06-05");
    expect(bestRate([c, d, e], "fastest", id)).toBe(e);
  });

  it("never calls a rate without a transit time the fastest", () => {
    const unknown = r(5, 0);
    const slow = r(9, 7);
    expect(bestRate([unknown, slow], "fastest", id)).toBe(slow);
    expect(bestRate([unknown, slow], "cheapest", id)).toBe(unknown);
    expect(bestRate([], "cheapest", id)).toBeUndefined();
  });
});
