import { afterEach, describe, expect, it, vi } from "vitest";
import { RateLimiter, SETTLE_EVERY_MS, sliceOf, type Settle } from "./rate-limit";

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

  it("keeps a bucket as it was when the clock is set back, and refills from then on", () => {
    let now = 3 * 86_400_000;
    const limiter = new RateLimiter(() => now);
    limiter.take("k", 60);
    now = 0;
    expect(limiter.take("k", 60)).toMatchObject({ allowed: true, remaining: 58 });
    now += 1000;
    expect(limiter.take("k", 60)).toMatchObject({ allowed: true, remaining: 58 });
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

describe("RateLimiter's arithmetic", () => {
  it("refills at limit per window, reports whole tokens left, and the wait for the next one", () => {
    let now = 0;
    const limiter = new RateLimiter(() => now);
    expect(limiter.take("k", 3)).toEqual({ allowed: true, limit: 3, remaining: 2, retryAfterSeconds: 0 });
    limiter.take("k", 3);
    limiter.take("k", 3);
    // 3 a minute: a token every 20 s
    expect(limiter.take("k", 3)).toEqual({ allowed: false, limit: 3, remaining: 0, retryAfterSeconds: 20 });
    now = 15_000; // three quarters of a token: 5 s to go
    expect(limiter.take("k", 3)).toMatchObject({ allowed: false, retryAfterSeconds: 5 });
    now = 20_000;
    expect(limiter.take("k", 3)).toEqual({ allowed: true, limit: 3, remaining: 0, retryAfterSeconds: 0 });
    now = 60_000 + 20_000 + 10_000; // far past full: never more than the limit
    expect(limiter.take("k", 3).remaining).toBe(2);
  });

  it("takes another window, and never answers a wait under 1 second", () => {
    let now = 0;
    const limiter = new RateLimiter(() => now);
    expect(limiter.take("k", 1000, 1000).remaining).toBe(999);
    for (let i = 0; i < 999; i++) limiter.take("k", 1000, 1000);
    expect(limiter.take("k", 1000, 1000)).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    now = 500;
    expect(limiter.take("k", 1000, 1000)).toMatchObject({ allowed: true, remaining: 499 });
  });

  it("refunds nothing to a key it has never seen, and reset forgets every bucket", () => {
    const limiter = new RateLimiter(() => 0);
    limiter.refund("new", 2);
    expect(limiter.take("new", 2).remaining).toBe(1);
    limiter.take("new", 2);
    limiter.reset();
    expect(limiter.take("new", 2).remaining).toBe(1);
  });

  it("past 50 000 buckets drops the full ones, and keeps every bucket that still has something to remember", () => {
    // Not at 0: a sweep must judge a bucket by the time since its last take, not by the clock's value.
    let now = 100_000;
    const limiter = new RateLimiter(() => now);
    const size = () => (limiter as unknown as { buckets: Map<string, unknown> }).buckets.size;
    limiter.take("busy", 2);
    limiter.take("busy", 2);
    for (let i = 1; i < 50_000; i++) limiter.take(`k${i}`, 2);
    expect(size()).toBe(50_000); // not over yet: nothing swept
    now = 130_000; // every other bucket is full again; "busy" has 1 of 2
    limiter.take("one-more", 2);
    expect(size()).toBeLessThanOrEqual(2); // "busy", and at most the newcomer
    expect(size()).toBeGreaterThanOrEqual(1);
    expect(limiter.take("busy", 2)).toMatchObject({ allowed: true, remaining: 0 });
  });
});

describe("RateLimiter shared between instances", () => {
  // The settle timer, moved by the test: nothing waits for real time.
  afterEach(() => vi.useRealTimers());

  /** The shared bucket as rate_limits keeps it, with the clock standing still (no refill). */
  function sharedStore() {
    const tokens = new Map<string, number>();
    let calls = 0;
    const settle: Settle = async (entries) => {
      calls++;
      return entries.map((e) => {
        const left = Math.max(-e.limit, Math.min(e.limit, tokens.get(e.key) ?? e.limit) - e.spent);
        tokens.set(e.key, left);
        return left;
      });
    };
    return { settle, tokens, calls: () => calls };
  }

  it("two instances in a burst admit the limit and at most one slice more, settling once per slice", async () => {
    const store = sharedStore();
    const [a, b] = [new RateLimiter(() => 0), new RateLimiter(() => 0)];
    a.share(store.settle);
    b.share(store.settle);
    let admitted = 0;
    // Interleaved, as a load balancer spreads one client's burst: 400 requests each for a limit of 200.
    await Promise.all(
      [a, b].map(async (limiter) => {
        for (let i = 0; i < 400; i++) if ((await limiter.admit("k", 200)).allowed) admitted++;
      }),
    );
    expect(admitted).toBeGreaterThanOrEqual(200);
    expect(admitted).toBeLessThanOrEqual(200 + sliceOf(200));
    // One round trip per slice spent, not one per request.
    expect(store.calls()).toBeLessThanOrEqual(Math.ceil(admitted / sliceOf(200)) + 2);
  });

  it("learns what the others spent at its next settle, and gives refunds back to the shared bucket", async () => {
    vi.useFakeTimers({ toFake: ["setInterval"] });
    const store = sharedStore();
    const [a, b] = [new RateLimiter(() => 0), new RateLimiter(() => 0)];
    a.share(store.settle);
    b.share(store.settle);
    for (let i = 0; i < 20; i++) expect((await a.admit("k", 20)).allowed).toBe(true);
    expect((await a.admit("k", 20)).allowed).toBe(false);
    // b has not seen the key: one slice before it settles and finds the bucket empty.
    expect((await b.admit("k", 20)).allowed).toBe(true);
    expect((await b.admit("k", 20)).allowed).toBe(false);
    expect(store.tokens.get("k")).toBe(-1);
    a.refund("k", 20);
    b.refund("k", 20);
    // Two tokens back (paying the debt of one), one spent again: the shared bucket ends empty.
    expect((await a.admit("k", 20)).allowed).toBe(true);
    await vi.advanceTimersByTimeAsync(SETTLE_EVERY_MS);
    expect(store.tokens.get("k")).toBe(0);
  });

  it("spends during a settle on its way only what is left of its slice, and charges it to the answer", async () => {
    vi.useFakeTimers({ toFake: ["setInterval"] });
    // The other instances have spent 96 of 100: 4 are left. The store answers when the test says so.
    let shared = 4;
    const sent: number[] = [];
    let land = () => {};
    const limiter = new RateLimiter(() => 0);
    limiter.share((entries) => {
      sent.push(entries[0]!.spent);
      shared -= entries[0]!.spent;
      return new Promise((resolve) => (land = () => resolve([shared])));
    });
    const tokens = () => (limiter as unknown as { buckets: Map<string, { tokens: number }> }).buckets.get("k")!.tokens;
    let admitted = 0;
    const admit = async () => {
      if ((await limiter.admit("k", 100)).allowed) admitted++;
    };
    await admit();
    await admit();
    // The timer sends those 2 (of a slice of 5) and the store is slow to answer.
    await vi.advanceTimersByTimeAsync(SETTLE_EVERY_MS);
    expect(sent).toEqual([2]);
    // Five more meanwhile: the 3 left of the slice go at once, the others wait for the answer.
    const waiting = Array.from({ length: 5 }, admit);
    await vi.advanceTimersByTimeAsync(0);
    expect(admitted).toBe(5);
    land();
    await Promise.all(waiting);
    // The answer (2 left) less the 3 spent since it was sent: this instance is 1 in debt and admits nothing more.
    expect(admitted).toBe(5);
    expect(tokens()).toBe(-1);
    await vi.advanceTimersByTimeAsync(SETTLE_EVERY_MS);
    expect(sent).toEqual([2, 3]);
    land();
    await vi.advanceTimersByTimeAsync(0);
    // One over the deployment's limit: within this instance's slice.
    expect(shared).toBe(-1);
    expect(tokens()).toBe(-1);
  });

  it("keeps to its own bucket while the store does not answer, and settles what it spent once it does", async () => {
    vi.useFakeTimers({ toFake: ["setInterval"] });
    let down = true;
    const store = sharedStore();
    const limiter = new RateLimiter(() => 0);
    let attempts = 0;
    limiter.share((entries) => {
      attempts++;
      return down ? Promise.reject(new Error("connect ECONNREFUSED")) : store.settle(entries);
    });
    for (let i = 0; i < 10; i++) expect((await limiter.admit("k", 10)).allowed).toBe(true);
    expect((await limiter.admit("k", 10)).allowed).toBe(false);
    // One attempt found it away; the rest of the burst did not ask again.
    expect(attempts).toBe(1);
    down = false;
    await vi.advanceTimersByTimeAsync(SETTLE_EVERY_MS);
    expect(store.tokens.get("k")).toBe(0);
  });
});
