import { sleep } from "@/lib/carriers/http/deadline";
import type { SandboxConfig, SandboxOperation } from "@/lib/carriers/sandbox/config";
import { rateLimited, unavailable } from "@/lib/carriers/sandbox/errors";

/** What a throttled caller is told to wait. Short, so demos of the back-off path stay snappy. */
const RATE_LIMIT_RETRY_AFTER_SECONDS = 1;

/**
 * Waits `ms` like a slow network would, but gives up the moment `signal` aborts (rejecting with its reason) and
 * clears its timer, so an abandoned call leaves nothing running. The caller enforces the deadline; we only listen.
 */
export const simulatedLatency = sleep;

/**
 * Injected failures. The call counter for `rate_limit_every` lives in this object (one per adapter instance),
 * keyed by connection, so it is per process — like a carrier's per-client quota window, it is not shared
 * across server instances. `random` is injectable so tests can pin `failure_rate` outcomes.
 */
export class FaultInjector {
  private readonly calls = new Map<string, number>();

  constructor(private readonly random: () => number = Math.random) {}

  /** Throws the simulated failure for this call, if any. Every call counts toward `rate_limit_every`. */
  check(connectionId: string, operation: SandboxOperation, config: SandboxConfig): void {
    const n = (this.calls.get(connectionId) ?? 0) + 1;
    this.calls.set(connectionId, n);
    if (config.rateLimitEvery !== null && n % config.rateLimitEvery === 0)
      throw rateLimited(RATE_LIMIT_RETRY_AFTER_SECONDS);
    if (config.failOperations.has(operation)) throw unavailable(operation, "configured");
    if (config.failureRate > 0 && this.random() < config.failureRate) throw unavailable(operation, "random");
  }
}

/**
 * `lost_answers`: the operation already happened (the sale or the void is on the books) and its answer never
 * arrives: wait until the caller gives up (its deadline), as a carrier whose response was lost on the way would.
 */
export async function loseAnswer(
  operation: "ship" | "void",
  config: SandboxConfig,
  signal: AbortSignal,
): Promise<void> {
  if (!config.lostAnswers.has(operation)) return;
  await new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}
