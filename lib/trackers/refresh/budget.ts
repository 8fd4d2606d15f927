import "server-only";
import { getAdapter } from "@/lib/carriers/registry";
import type { CarrierAdapter, TrackingBudget } from "@/lib/carriers/types";

/**
 * How hard background tracking may lean on one carrier connection: the budget its adapter declares from the
 * carrier's published limits, each number overridable in the connection's `config` (`refresh_concurrency`,
 * `refresh_requests_per_minute`, `refresh_batch_size`). Batches only where the adapter has trackMany.
 */
export function refreshBudget(adapter: CarrierAdapter, config: Record<string, unknown>): TrackingBudget {
  const base = adapter.trackingBudget;
  const num = (key: string) => (typeof config[key] === "number" ? (config[key] as number) : undefined);
  return {
    concurrency: num("refresh_concurrency") ?? base.concurrency,
    requestsPerMinute: num("refresh_requests_per_minute") ?? base.requestsPerMinute,
    batchSize: adapter.trackMany ? (num("refresh_batch_size") ?? base.batchSize) : 1,
  };
}

/** A carrier whose parcels move on a simulated clock (the sandbox's `pace`) has its trackers due that much sooner. */
export function refreshTimeScale(connection: { carrierName: string; config: Record<string, unknown> }): number {
  const pace = getAdapter(connection.carrierName)?.simulatedPace?.(connection.config) ?? 1;
  return pace > 0 ? 1 / pace : 1;
}
