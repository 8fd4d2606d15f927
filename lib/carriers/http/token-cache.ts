import { createHash } from "node:crypto";

/**
 * OAuth access tokens shared across calls. UPS, FedEx and USPS throttle their token endpoints (UPS answers 429
 * "Quota Limit Exceeded"), so a token is fetched once per credentials and reused until shortly before it expires.
 */

export interface FetchedToken {
  token: string;
  expiresInSeconds: number;
}

interface Entry {
  token: string;
  refreshAt: number;
}

const DEFAULT_REFRESH_MARGIN_MS = 5 * 60_000;

export class TokenCache {
  private readonly now: () => number;
  private readonly refreshMarginMs: number;
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<string>>();

  constructor(opts: { now?: () => number; refreshMarginMs?: number } = {}) {
    this.now = opts.now ?? Date.now;
    this.refreshMarginMs = opts.refreshMarginMs ?? DEFAULT_REFRESH_MARGIN_MS;
  }

  /**
   * The cached token for `key` while it has more than the refresh margin left; otherwise one shared call to
   * `fetch` for all concurrent callers. A failed fetch is not remembered: the next call tries again.
   */
  get(key: string, fetch: () => Promise<FetchedToken>): Promise<string> {
    const entry = this.entries.get(key);
    if (entry && this.now() < entry.refreshAt) return Promise.resolve(entry.token);
    const pending = this.inflight.get(key);
    if (pending) return pending;

    const refresh = (async () => {
      const fetched = await fetch();
      const lifetimeMs = fetched.expiresInSeconds * 1000;
      if (Number.isFinite(lifetimeMs) && lifetimeMs > 0) {
        // Half the lifetime at most, so a short-lived (60 s) token is still reused rather than fetched every call.
        const margin = Math.min(this.refreshMarginMs, lifetimeMs / 2);
        this.entries.set(key, { token: fetched.token, refreshAt: this.now() + lifetimeMs - margin });
      } else {
        // No usable lifetime: hand the token out once but never guess how long it stays valid.
        this.entries.delete(key);
      }
      return fetched.token;
    })().finally(() => {
      if (this.inflight.get(key) === refresh) this.inflight.delete(key);
    });
    this.inflight.set(key, refresh);
    return refresh;
  }

  /**
   * Forgets the token for `key` (an adapter calls this after a 401, then retries once). Passing the token that was
   * refused keeps a newer one that a concurrent caller already fetched, so a burst of 401s causes one refresh.
   */
  invalidate(key: string, token?: string): void {
    const entry = this.entries.get(key);
    if (entry && (token === undefined || entry.token === token)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
    this.inflight.clear();
  }
}

/** One cache per process: every connection with the same credentials shares its token. */
export const sharedTokenCache = new TokenCache();

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, canonical(v)]),
    );
  }
  return value;
}

/**
 * A cache key for a carrier's credentials: a sha256 of their canonical JSON, so secrets never sit in memory as map
 * keys or show up if keys are logged, and the same credentials map to the same key whatever their property order.
 */
export function credentialsKey(carrier: string, credentials: Record<string, unknown>): string {
  const digest = createHash("sha256")
    .update(JSON.stringify([carrier, canonical(credentials)]))
    .digest("hex");
  return `${carrier}:${digest}`;
}
