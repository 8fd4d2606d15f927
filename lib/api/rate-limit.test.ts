import { describe, expect, it } from "vitest";
import { RateLimiter } from "./rate-limit";

describe("RateLimiter", () => {
  it("allows the budget, then refuses with the wait until the next token, and refills over time", () => {
    let now = 0;
    const limiter = new RateLimiter(() => now);
    for (let i = 0; i < 60; i++) expect(limiter.take("k", 60).allowed).toBe(true);
    const refused = limiter.take("k", 60);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 1 });
    expect(limiter.take("other", 60).allowed).toBe(true);
    now += 1000;
    expect(limiter.take("k", 60).allowed).toBe(true);
    expect(limiter.take("k", 60).allowed).toBe(false);
  });

  it("takes back a refunded token, never beyond a full bucket", () => {
    const limiter = new RateLimiter(() => 0);
    limiter.take("k", 2);
    limiter.take("k", 2);
    expect(limiter.take("k", 2).allowed).toBe(false);
    limiter.refund("k", 2);
    expect(limiter.take("k", 2)).toMatchObject({ allowed: true, remaining: 0 });
    limiter.refund("k", 2);
    limiter.refund("k", 2);
    limiter.refund("k", 2);
    expect(limiter.take("k", 2).remaining).toBe(1);
  });
});
