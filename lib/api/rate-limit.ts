import "server-only";
import { log } from "@/lib/log";

/**
 * Token buckets by key (an API key, a client address): `limit` requests per window (a minute unless said) with bursts
 * up to the same number. Kept in process memory; with several instances on one Postgres each bucket is also shared
 * (`share`): an instance spends from its own copy and settles what it spent with the database in batches, so the
 * deployment as a whole keeps the limit within a stated overshoot (docs/api.md, "Rate limiting").
 */
interface Bucket {
  tokens: number;
  updatedAt: number;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  retryAfterSeconds: number;
}

/** One bucket's spending since its last settle, sent to the shared store. */
export interface SettleEntry {
  key: string;
  /** Tokens spent here since the last settle (less those given back); may be negative. */
  spent: number;
  limit: number;
  windowMs: number;
}

/** Charges each entry to the shared bucket and answers its balance after the charge, in the same order. */
export type Settle = (entries: SettleEntry[]) => Promise<number[]>;

/** How often an instance settles what it spent, at most: the staleness of what it knows of the others. */
export const SETTLE_EVERY_MS = 250;
/**
 * What an instance may spend on one bucket before it settles: 5 % of the limit (at least 1). A request past it waits
 * for the settle (one round trip per slice, only in bursts). It bounds the overshoot: each other instance can have
 * spent at most one slice that this one does not know of, so N instances admit at most (N − 1) × 5 % over the limit.
 */
export const sliceOf = (limit: number) => Math.max(1, Math.floor(limit / 20));

export class RateLimiter {
  private buckets = new Map<string, Bucket>();
  private unsettled = new Map<string, SettleEntry>();
  // What the settle on its way carries: spent too, and not yet known to the others.
  private inFlight = new Map<string, number>();
  private settle?: Settle;
  private settling?: Promise<boolean>;
  private timer?: ReturnType<typeof setInterval>;
  private failing = false;
  // Date.now read at each take, not captured: a test that freezes the clock freezes the buckets too.
  constructor(private readonly now: () => number = () => Date.now()) {}

  take(key: string, limit: number, windowMs = 60_000): RateDecision {
    const perMinute = limit;
    const now = this.now();
    const ratePerMs = limit / windowMs;
    const bucket = this.buckets.get(key) ?? { tokens: perMinute, updatedAt: now };
    // A clock set back (NTP, an operator) refills nothing, rather than leaving a bucket in debt for as long.
    bucket.tokens = Math.min(perMinute, bucket.tokens + Math.max(0, now - bucket.updatedAt) * ratePerMs);
    bucket.updatedAt = now;
    this.buckets.set(key, bucket);
    if (this.buckets.size > 50_000) this.sweep(now, ratePerMs, perMinute);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      this.spend(key, 1, limit, windowMs);
      return { allowed: true, limit: perMinute, remaining: Math.floor(bucket.tokens), retryAfterSeconds: 0 };
    }
    const retryAfterSeconds = Math.max(1, Math.ceil((1 - bucket.tokens) / ratePerMs / 1000));
    return { allowed: false, limit: perMinute, remaining: 0, retryAfterSeconds };
  }

  /** Full buckets carry no information; dropping them bounds memory under many keys. */
  private sweep(now: number, ratePerMs: number, perMinute: number) {
    for (const [key, b] of this.buckets) {
      if (b.tokens + (now - b.updatedAt) * ratePerMs >= perMinute) this.buckets.delete(key);
    }
  }

  /**
   * `take`, for a shared limiter: a bucket that has spent its slice since its last settle settles first (and a
   * database that does not answer leaves the instance on its own bucket). Refusals never wait: what this instance
   * knows of a bucket is never less than what is left of it.
   */
  async admit(key: string, limit: number, windowMs = 60_000): Promise<RateDecision> {
    // While the store is failing, the timer keeps trying: requests do not each wait on a database that is away.
    while (this.settle && !this.failing && this.unknownToOthers(key) >= sliceOf(limit)) {
      if (!(await this.settleNow())) break;
    }
    return this.take(key, limit, windowMs);
  }

  /** Gives back a token taken for something that turned out not to count. */
  refund(key: string, perMinute: number, windowMs = 60_000): void {
    const bucket = this.buckets.get(key);
    if (!bucket) return;
    bucket.tokens = Math.min(perMinute, bucket.tokens + 1);
    this.spend(key, -1, perMinute, windowMs);
  }

  /**
   * Shares every bucket with the other instances through `settle` (lib/api/rate-limit-store.ts), every
   * SETTLE_EVERY_MS while anything was spent. The timer never keeps the process alive.
   */
  share(settle: Settle): void {
    this.settle = settle;
    this.timer ??= setInterval(() => void this.settleNow(), SETTLE_EVERY_MS);
    this.timer.unref?.();
  }

  private unknownToOthers(key: string): number {
    return (this.unsettled.get(key)?.spent ?? 0) + (this.inFlight.get(key) ?? 0);
  }

  private spend(key: string, tokens: number, limit: number, windowMs: number) {
    if (!this.settle) return;
    const entry = this.unsettled.get(key) ?? { key, spent: 0, limit, windowMs };
    entry.spent += tokens;
    this.unsettled.set(key, entry);
  }

  /** Sends what was spent since the last settle; one settle at a time. False when the store did not answer. */
  private settleNow(): Promise<boolean> {
    if (this.settling) return this.settling;
    if (!this.settle || this.unsettled.size === 0) return Promise.resolve(true);
    return (this.settling = this.settleOnce(this.settle).finally(() => (this.settling = undefined)));
  }

  private async settleOnce(settle: Settle): Promise<boolean> {
    const batch = [...this.unsettled.values()];
    this.unsettled = new Map();
    this.inFlight = new Map(batch.map((e) => [e.key, e.spent]));
    let balances: number[];
    try {
      balances = await settle(batch);
    } catch (err) {
      this.inFlight.clear();
      // Spent is not lost: it goes with the next settle. Meanwhile this instance keeps to its own buckets.
      for (const e of batch) this.spend(e.key, e.spent, e.limit, e.windowMs);
      // Once per outage, not four times a second.
      if (!this.failing) log().warn({ msg: "rate limits could not be settled with the database", err });
      this.failing = true;
      return false;
    }
    this.failing = false;
    this.inFlight.clear();
    const now = this.now();
    batch.forEach((e, i) => {
      // The shared balance, less what this instance spent while the settle was on its way.
      const since = this.unsettled.get(e.key)?.spent ?? 0;
      this.buckets.set(e.key, { tokens: Math.min(e.limit, balances[i]! - since), updatedAt: now });
    });
    return true;
  }

  reset(): void {
    this.buckets.clear();
    this.unsettled.clear();
  }
}

// Two limiters, not one with two kinds of key: a sweep judges every bucket by one rate per minute.
const g = globalThis as unknown as { __shipwellRateLimiter?: RateLimiter; __shipwellAddressLimiter?: RateLimiter };
/** Per API key (RATE_LIMIT_PER_MINUTE). */
export const rateLimiter: RateLimiter = (g.__shipwellRateLimiter ??= new RateLimiter());
/** Per client address, for requests without a valid key (UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE). */
export const addressLimiter: RateLimiter = (g.__shipwellAddressLimiter ??= new RateLimiter());
