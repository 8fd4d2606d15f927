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
});
