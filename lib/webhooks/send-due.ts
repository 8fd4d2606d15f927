import "server-only";
import type { SystemContext } from "@/lib/context";
import { disableReason, sendDelivery, settleBatch, type SenderOptions, type SentAttempt } from "./deliver";
import { LAST_START_BEFORE_LEASE_END_MS, claimBatch, endpointAsClaimed, planWebhookRound } from "./due-deliveries";
import { signingSecretsOf } from "./endpoint-rows";

/**
 * The sender's round (docs/webhooks.md, "Delivery"). Deliveries of one endpoint go out one at a time in the order
 * their events were written: only an endpoint's oldest pending delivery (its head) may be sent, and a newer one
 * waits while the head waits for its retry. Endpoints run side by side, each on its own worker, so a slow or dead
 * receiver only ever holds up its own deliveries. A head is claimed with `FOR UPDATE SKIP LOCKED` and a lease,
 * with the due run behind it (due-deliveries.ts): however many rounds run, on however many instances, one attempt
 * is sent once; a sender that dies leaves its deliveries to be claimed again when the lease ends (at-least-once).
 */

export interface EndpointRoundReport {
  endpoint_id: string;
  sent: number;
  succeeded: number;
  /** Attempts that failed (to be retried, out of retries, or that disabled the endpoint). */
  failed: number;
  disabled: boolean;
}

// Deliveries claimed at once: one claim and one settle for up to this many, sent one after the other. A claim and a
// settle cost about a dozen round trips; at 100 that is a tenth of a fast receiver's attempt (issue 35). A slow
// receiver is cut short by the lease anyway, and a failed attempt ends the batch.
const BATCH = 100;
// Settle what was sent at least this often while a batch runs, so the log and the states stay current.
const SETTLE_EVERY_MS = 1000;
// Read the endpoint again before an attempt that starts this long after the last reading (the claim is one): an
// endpoint disabled, re-pointed or deleted is sent nothing that starts later than this after the change commits.
// Before every attempt, the reading cost 0.45 ms of CPU per delivery and more than half a burst's drain (issue 35).
export const ENDPOINT_RECHECK_MS = 50;

/**
 * One endpoint's worker: its due deliveries, oldest first, one at a time, in claimed batches, until none is due, an
 * attempt fails (the head then waits for its retry, and nothing behind it may overtake it; one whose retries ran
 * out lets the next go at once), the endpoint is disabled, or the time is up.
 */
export async function sendEndpointDeliveries({
  ctx,
  endpointId,
  clock = () => new Date(),
  maxDurationMs = 45_000,
  signal,
  options,
}: {
  ctx: SystemContext;
  endpointId: string;
  clock?: () => Date;
  /** Stop claiming after this long (real time); the batch under way finishes. */
  maxDurationMs?: number;
  /** Aborted when the process shuts down: no new attempt starts, the rest of the batch is handed back. */
  signal?: AbortSignal;
  options?: SenderOptions;
}): Promise<EndpointRoundReport> {
  const started = performance.now();
  const report: EndpointRoundReport = { endpoint_id: endpointId, sent: 0, succeeded: 0, failed: 0, disabled: false };
  let stop = false;
  while (!stop && !signal?.aborted && performance.now() - started < maxDurationMs) {
    const batch = await claimBatch(ctx, endpointId, clock(), BATCH);
    if (!batch) break;
    const secrets = signingSecretsOf(batch.endpoint);
    let failingSince = batch.endpoint.failingSince;
    let disabled: "gone" | "failing" | null = null;
    let sent: SentAttempt[] = [];
    let settledAt = performance.now();
    let next = 0;
    let endpoint: Awaited<ReturnType<typeof endpointAsClaimed>> = "same";
    let readAt = performance.now();
    for (; next < batch.deliveries.length && !stop; next++) {
      const now = clock();
      // Time left on the lease for a whole attempt; what is not sent goes back, due as it was.
      if (now.getTime() > batch.leaseUntil.getTime() - LAST_START_BEFORE_LEASE_END_MS || signal?.aborted) break;
      // Disabled, re-pointed or deleted since it was read: nothing more goes to what the batch read.
      if (performance.now() - readAt >= ENDPOINT_RECHECK_MS) {
        readAt = performance.now();
        endpoint = await endpointAsClaimed(ctx, batch.endpoint);
        if (endpoint !== "same") break;
      }
      const { delivery, event } = batch.deliveries[next]!;
      const attempt = await sendDelivery(batch.endpoint, delivery, event, now, options, secrets(now));
      sent.push(attempt);
      report.sent++;
      if (attempt.verdict.status === "succeeded") {
        report.succeeded++;
        failingSince = null;
      } else {
        report.failed++;
        failingSince ??= attempt.attemptedAt;
        disabled = disableReason(attempt, failingSince);
        report.disabled = disabled !== null;
        stop = disabled !== null || attempt.verdict.status === "pending";
      }
      if (!stop && performance.now() - settledAt >= SETTLE_EVERY_MS) {
        await settleBatch(ctx, batch, sent, [], { failingSince, disabled });
        batch.endpoint.failingSince = failingSince;
        sent = [];
        settledAt = performance.now();
      }
    }
    // Deleted: its deliveries and their log went with it, so nothing is left to settle.
    if (endpoint === "gone") break;
    const unsent = batch.deliveries.slice(next).map((d) => d.delivery);
    await settleBatch(ctx, batch, sent, unsent, { failingSince, disabled });
    // Re-pointed: the next claim reads the new address (disabled, it claims nothing).
    if (next < batch.deliveries.length && endpoint === "same") break;
  }
  return report;
}

/** One line per endpoint worker that sent anything (`msg: "webhook_deliveries"`), at warn when an attempt failed. */
export function logEndpointRound(ctx: SystemContext, report: EndpointRoundReport): void {
  if (report.sent === 0) return;
  const line = { msg: "webhook_deliveries", ...report };
  if (report.failed > 0) ctx.log.warn(line);
  else ctx.log.info(line);
}

export interface WebhookRoundReport {
  endpoints: number;
  sent: number;
  succeeded: number;
  failed: number;
  disabled: number;
  duration_ms: number;
}

/**
 * A whole round in one call: plan, then every endpoint's worker, at most `concurrency` at once. The Inngest
 * function runs the same workers as steps; the in-process loop starts them per tick.
 */
export async function sendDueWebhooks({
  ctx,
  clock = () => new Date(),
  concurrency = 16,
  maxDurationMs = 45_000,
  options,
}: {
  ctx: SystemContext;
  clock?: () => Date;
  concurrency?: number;
  maxDurationMs?: number;
  options?: SenderOptions;
}): Promise<WebhookRoundReport> {
  const started = performance.now();
  const queue = await planWebhookRound({ ctx, now: clock() });
  const reports: EndpointRoundReport[] = [];
  const worker = async () => {
    for (let endpointId = queue.shift(); endpointId; endpointId = queue.shift()) {
      const left = maxDurationMs - (performance.now() - started);
      if (left <= 0) return;
      reports.push(await sendEndpointDeliveries({ ctx, endpointId, clock, maxDurationMs: left, options }));
    }
  };
  const planned = queue.length;
  await Promise.all(Array.from({ length: Math.min(concurrency, planned) }, worker));
  return summarize(reports, planned, started);
}

function summarize(reports: EndpointRoundReport[], endpoints: number, started: number): WebhookRoundReport {
  return {
    endpoints,
    sent: reports.reduce((n, r) => n + r.sent, 0),
    succeeded: reports.reduce((n, r) => n + r.succeeded, 0),
    failed: reports.reduce((n, r) => n + r.failed, 0),
    disabled: reports.filter((r) => r.disabled).length,
    duration_ms: Math.round(performance.now() - started),
  };
}
