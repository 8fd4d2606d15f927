import { getAdapter } from "@/lib/carriers/registry";

/**
 * How hard background tracking may lean on one carrier connection. Defaults follow the rate limits in carriers.md; a connection's
 * `config` overrides them (`refresh_concurrency`, `refresh_requests_per_minute`, `refresh_batch_size`).
 */
export interface RefreshBudget {
  /** Tracking calls in flight at once. */
  concurrency: number;
  /** Tracking calls started per minute (a batch is one call). */
  requestsPerMinute: number;
  /** Numbers per call where the adapter has trackMany; 1 otherwise. */
  batchSize: number;
}

export const TRACKING_BUDGET_DEFAULTS: Record<string, RefreshBudget> = {
  // Offline; its own limits are whatever a test injects with rate_limit_every.
  sandbox: { concurrency: 4, requestsPerMinute: 6000, batchSize: 30 },
  // FedEx: 1,400 transactions / 10 s per project, shared with rating and shipping; 30 numbers per track call.
  fedex: { concurrency: 4, requestsPerMinute: 1200, batchSize: 30 },
  // UPS publishes no number, only 429s; one number per call.
  ups: { concurrency: 2, requestsPerMinute: 120, batchSize: 1 },
  // USPS v3: ~60 requests an hour for a new app unless raised.
  usps: { concurrency: 1, requestsPerMinute: 1, batchSize: 1 },
  // DHL developer portal starter tier: 1 call per second.
  dhl_express: { concurrency: 1, requestsPerMinute: 50, batchSize: 1 },
  // Canada Post: tracking group 20 per rolling 60 s by default.
  canadapost: { concurrency: 1, requestsPerMinute: 18, batchSize: 1 },
};

const FALLBACK: RefreshBudget = { concurrency: 1, requestsPerMinute: 30, batchSize: 1 };

export function refreshBudget(connection: { carrierName: string; config: Record<string, unknown> }): RefreshBudget {
  const base = TRACKING_BUDGET_DEFAULTS[connection.carrierName] ?? FALLBACK;
  const num = (key: string) =>
    typeof connection.config[key] === "number" ? (connection.config[key] as number) : undefined;
  const adapter = getAdapter(connection.carrierName);
  const canBatch = !!adapter?.trackMany && adapter.capabilities.includes("multi_track");
  return {
    concurrency: num("refresh_concurrency") ?? base.concurrency,
    requestsPerMinute: num("refresh_requests_per_minute") ?? base.requestsPerMinute,
    batchSize: canBatch ? (num("refresh_batch_size") ?? base.batchSize) : 1,
  };
}

/** The sandbox's simulated clock runs `pace` times faster: its trackers are due that much sooner. */
export function refreshTimeScale(connection: { carrierName: string; config: Record<string, unknown> }): number {
  const pace = getAdapter(connection.carrierName)?.simulatedPace?.(connection.config) ?? 1;
  return pace > 0 ? 1 / pace : 1;
}
