import "server-only";
/**
 * Token buckets by key (an API key, a client address): `limit` requests per window (a minute unless said) with bursts
 * up to the same number. Kept in process memory, so each instance enforces the limit on its own share of traffic (see docs/api.md).
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

export class RateLimiter {
  private buckets = new Map<string, Bucket>();
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

  /** Gives back a token taken for something that turned out not to count. */
  refund(key: string, perMinute: number): void {
    const bucket = this.buckets.get(key);
    if (bucket) bucket.tokens = Math.min(perMinute, bucket.tokens + 1);
  }

  reset(): void {
    this.buckets.clear();
  }
}

// Two limiters, not one with two kinds of key: a sweep judges every bucket by one rate per minute.
const g = globalThis as unknown as { __shipwellRateLimiter?: RateLimiter; __shipwellAddressLimiter?: RateLimiter };
/** Per API key (RATE_LIMIT_PER_MINUTE). */
export const rateLimiter: RateLimiter = (g.__shipwellRateLimiter ??= new RateLimiter());
/** Per client address, for requests without a valid key (UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE). */
export const addressLimiter: RateLimiter = (g.__shipwellAddressLimiter ??= new RateLimiter());
