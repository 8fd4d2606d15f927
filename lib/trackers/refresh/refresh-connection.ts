import "server-only";
import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { SystemContext } from "@/lib/context";
import { carrierConnections } from "@/lib/db/schema";
import { getAdapter } from "@/lib/carriers/registry";
import {
  CarrierError,
  hasCode,
  messageWithCode,
  type CarrierAdapter,
  type CarrierErrorCode,
  type CarrierMessage,
  type TrackingBudget,
  type TrackingResult,
} from "@/lib/carriers/types";
import { connectionMessages, invokeConnection } from "@/lib/connections/invoke-connection";
import type { ConnectionRow } from "@/lib/connections/present";
import type { TrackerRow } from "@/lib/trackers/present-tracker";
import { recordTrackingFailure, recordTrackings, type TrackingAnswer } from "@/lib/trackers/record-tracking";
import { refreshBudget, refreshTimeScale } from "./budget";
import { claimDueTrackers, rescheduleTrackers } from "./due-trackers";
import { pacerFor } from "./pacer";
import { reassignOrphanTrackers } from "./reassign";

export interface ConnectionRoundReport {
  connection_id: string;
  carrier_name: string | null;
  /** Trackers claimed for this round. */
  due: number;
  refreshed: number;
  /** Refreshed trackers whose events, status or estimated delivery changed. */
  changed: number;
  failed: number;
  /** Trackers put off to a later round because the carrier said 429 / Retry-After (never dropped). */
  backed_off: number;
  /** Carrier calls answered 429 (waited out within the round, or ending it). */
  rate_limited_calls: number;
  /** Trackers handed back unrefreshed: out of round time, or the carrier kept failing. */
  deferred: number;
  requests: number;
  duration_ms: number;
}

// At most this many trackers per round (also capped by one minute of the connection's request budget).
const MAX_TRACKERS_PER_ROUND = 5000;

// A claim outlives any round (rounds stop starting calls after maxDurationMs and each call has a deadline).
const LEASE_MS = 5 * 60 * 1000;
// A Retry-After up to this long is waited out within the round; longer ones end the round for the connection.
const WAIT_OUT_MS = 10_000;
const MAX_RATE_LIMIT_RETRIES = 3;
// This many transport failures in a row (timeouts, 5xx) and the connection is left alone until the next round.
const FAILURE_STREAK = 3;
const TRANSPORT_CODES: CarrierErrorCode[] = ["carrier_timeout", "carrier_unavailable", "carrier_bad_response"];

/**
 * One round for one carrier connection: claim its due trackers, ask the carrier in batches (trackMany where it
 * batches) within the connection's budget, and merge every answer with the managed-mode rules. Connections run
 * independently, so a slow or failing carrier only ever costs its own trackers time.
 */
export async function refreshConnection({
  ctx,
  connectionId,
  maxDurationMs = 50_000,
}: {
  ctx: SystemContext;
  connectionId: string;
  /** Stop starting calls after this long; what is left is due again at once. */
  maxDurationMs?: number;
}): Promise<ConnectionRoundReport> {
  const { db } = ctx;
  const clock = () => new Date();
  const started = performance.now();
  const report: ConnectionRoundReport = {
    connection_id: connectionId,
    carrier_name: null,
    due: 0,
    refreshed: 0,
    changed: 0,
    failed: 0,
    backed_off: 0,
    rate_limited_calls: 0,
    deferred: 0,
    requests: 0,
    duration_ms: 0,
  };
  const finish = () => ({ ...report, duration_ms: Math.round(performance.now() - started) });

  const [connection] = await db.select().from(carrierConnections).where(eq(carrierConnections.id, connectionId));
  const adapter = connection ? getAdapter(connection.carrierName) : undefined;
  if (!connection || !connection.active || !adapter?.capabilities.includes("track")) {
    const moved = await reassignOrphanTrackers(ctx, connectionId, clock());
    report.due = moved.claimed;
    report.deferred = moved.reassigned;
    report.failed = moved.claimed - moved.reassigned;
    return finish();
  }
  report.carrier_name = connection.carrierName;
  const now = clock();
  if (connection.refreshBackoffUntil && connection.refreshBackoffUntil > now) return finish();

  // One worker per connection at a time, on any server: the pacer below then spaces all of its calls.
  const leaseUntil = new Date(now.getTime() + LEASE_MS);
  const [leased] = await db
    .update(carrierConnections)
    .set({ refreshLeaseUntil: leaseUntil })
    .where(
      and(
        eq(carrierConnections.id, connection.id),
        or(isNull(carrierConnections.refreshLeaseUntil), lt(carrierConnections.refreshLeaseUntil, now)),
      ),
    )
    .returning({ id: carrierConnections.id });
  if (!leased) return finish();
  try {
    return await runRound(ctx, connection, adapter, report, started, maxDurationMs, finish);
  } finally {
    await db
      .update(carrierConnections)
      .set({ refreshLeaseUntil: null })
      .where(and(eq(carrierConnections.id, connection.id), eq(carrierConnections.refreshLeaseUntil, leaseUntil)))
      .catch(() => undefined);
  }
}

async function runRound(
  ctx: SystemContext,
  connection: ConnectionRow,
  adapter: CarrierAdapter,
  report: ConnectionRoundReport,
  started: number,
  maxDurationMs: number,
  finish: () => ConnectionRoundReport,
): Promise<ConnectionRoundReport> {
  const { db } = ctx;
  const clock = () => new Date();
  const now = clock();
  const budget = refreshBudget(adapter, connection.config);
  const timeScale = refreshTimeScale(connection);
  const limit = Math.min(MAX_TRACKERS_PER_ROUND, budget.requestsPerMinute * budget.batchSize);
  const claimed = await claimDueTrackers(db, connection.id, limit, now, new Date(now.getTime() + LEASE_MS));
  report.due = claimed.length;
  if (claimed.length === 0) return finish();

  const queue = chunk(claimed, budget.batchSize).map((rows) => ({ rows, rateLimited: 0 }));
  const pacer = pacerFor(connection.id, budget.requestsPerMinute);
  // Well inside the lease, so no other worker can claim this round's trackers while it still runs.
  const maxDuration = Math.min(maxDurationMs, LEASE_MS / 2);
  let pausedUntil = 0;
  let failureStreak = 0;
  let stop: { at: Date; reason: "time" | "rate_limited" | "failing" } | null = null;

  const backedOff = new Set<string>();
  const refreshed = new Set<string>();
  // Never rejects: a batch the database failed is handed back, due again at once.
  const save = async (rows: TrackerRow[], results: Map<string, TrackingResult | CarrierError>) => {
    const saved = await db
      .transaction(async (tx) => {
        const answers: TrackingAnswer[] = [];
        for (const row of rows) {
          const answer = results.get(row.trackingNumber);
          if (answer && !(answer instanceof CarrierError)) answers.push({ tracker: row, result: answer });
          else {
            const messages = answer ? connectionMessages(connection, answer.messages) : notInAnswer(connection, row);
            await recordTrackingFailure(tx, row, messages, { now: clock(), timeScale });
            report.failed++;
          }
        }
        const merged = await recordTrackings(tx, answers, { now: clock(), timeScale });
        report.refreshed += merged.length;
        report.changed += merged.filter((m) => m.changed).length;
        for (const m of merged) refreshed.add(m.tracker.id);
      })
      .then(
        () => true,
        (err: unknown) => {
          // The database failed this batch: its trackers are due again at once (their lease would free them anyway).
          ctx.log.error({
            msg: "tracker refresh could not save a batch",
            connection_id: connection.id,
            err,
          });
          return false;
        },
      );
    if (!saved) {
      report.deferred += rows.length;
      await rescheduleTrackers(db, rows, clock()).catch(() => undefined);
    }
  };
  const worker = async () => {
    let writing: Promise<void> = Promise.resolve();
    try {
      while (!stop) {
        const item = queue.shift();
        if (!item) break;
        if (performance.now() - started > maxDuration) {
          stop = { at: clock(), reason: "time" };
          queue.unshift(item);
          break;
        }
        await pacer.take();
        if (pausedUntil > Date.now()) await sleep(pausedUntil - Date.now());
        if (stop) {
          queue.unshift(item);
          break;
        }
        report.requests++;
        const outcome = await askCarrier(connection, adapter, budget, item.rows);
        if (outcome.ok) {
          failureStreak = 0;
          // The answer is written while this worker asks the carrier for its next batch: the carrier's latency and the
          // database's no longer add up per batch. One write in flight per worker, so at most `concurrency` per round.
          await writing;
          writing = save(item.rows, outcome.results);
          continue;
        }
        const limited = messageWithCode(outcome.messages, "carrier_rate_limited");
        if (limited) {
          report.rate_limited_calls++;
          for (const row of item.rows) backedOff.add(row.id);
          const waitMs = retryAfterMs(limited);
          if (waitMs <= WAIT_OUT_MS && item.rateLimited < MAX_RATE_LIMIT_RETRIES) {
            // Honour the carrier's pause for every worker of this connection, then ask again.
            pausedUntil = Math.max(pausedUntil, Date.now() + waitMs);
            queue.push({ rows: item.rows, rateLimited: item.rateLimited + 1 });
            continue;
          }
          const until = new Date(clock().getTime() + Math.max(waitMs, 1000));
          stop = { at: until, reason: "rate_limited" };
          queue.unshift(item);
          await db
            .update(carrierConnections)
            .set({ refreshBackoffUntil: until })
            .where(eq(carrierConnections.id, connection.id));
          break;
        }
        failureStreak = TRANSPORT_CODES.some((c) => hasCode(outcome.messages, c)) ? failureStreak + 1 : 0;
        for (const row of item.rows)
          await recordTrackingFailure(db, row, outcome.messages, { now: clock(), timeScale });
        report.failed += item.rows.length;
        if (failureStreak >= FAILURE_STREAK && !stop)
          stop = { at: new Date(clock().getTime() + 5 * 60_000 * timeScale), reason: "failing" };
      }
    } finally {
      await writing;
    }
  };
  // A worker that fails (the database) stops the others; the round ends once each has ended, its write landed.
  const ended = await Promise.allSettled(
    Array.from({ length: Math.min(budget.concurrency, queue.length) }, () =>
      worker().catch((err: unknown) => {
        stop ??= { at: clock(), reason: "failing" };
        throw err;
      }),
    ),
  );
  const failed = ended.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;

  // Never dropped: whatever was not asked is due again when the round's stop says (at once if time ran out).
  const left = queue.flatMap((q) => q.rows);
  const halted = stop as { at: Date; reason: string } | null;
  await rescheduleTrackers(db, left, halted?.at ?? clock());
  if (halted?.reason === "rate_limited") for (const row of left) backedOff.add(row.id);
  else report.deferred += left.filter((r) => !backedOff.has(r.id)).length;
  // Trackers the carrier made us put off and that were not refreshed after all in this round.
  report.backed_off = [...backedOff].filter((id) => !refreshed.has(id)).length;
  return finish();
}

/**
 * One log line per connection per round: what an operator needs to see a carrier throttling or failing. `runner`
 * is the job's name (inngest, in_process).
 */
export function logConnectionRound(ctx: SystemContext, report: ConnectionRoundReport): void {
  if (report.due === 0) return;
  const level = report.failed > 0 || report.backed_off > 0 || report.rate_limited_calls > 0 ? "warn" : "info";
  ctx.log[level]({ msg: "tracker_refresh", runner: ctx.actor.name, ...report });
}

type CarrierAnswer =
  { ok: true; results: Map<string, TrackingResult | CarrierError> } | { ok: false; messages: CarrierMessage[] };

async function askCarrier(
  connection: ConnectionRow,
  adapter: CarrierAdapter,
  budget: TrackingBudget,
  rows: TrackerRow[],
): Promise<CarrierAnswer> {
  const numbers = rows.map((r) => r.trackingNumber);
  if (budget.batchSize > 1 && adapter.trackMany) {
    const outcome = await invokeConnection(connection, "multi_track", undefined, (a, actx) =>
      a.trackMany!(actx, numbers),
    );
    return outcome.ok
      ? { ok: true, results: new Map(Object.entries(outcome.data)) }
      : { ok: false, messages: outcome.messages };
  }
  const outcome = await invokeConnection(connection, "track", undefined, (a, ctx) => a.track(ctx, numbers[0]!));
  return outcome.ok
    ? { ok: true, results: new Map([[numbers[0]!, outcome.data]]) }
    : { ok: false, messages: outcome.messages };
}

const notInAnswer = (c: ConnectionRow, row: TrackerRow) =>
  connectionMessages(c, [
    { code: "carrier_bad_response", message: `The carrier's answer left out ${row.trackingNumber}.`, level: "error" },
  ]);

function retryAfterMs(message: CarrierMessage): number {
  const seconds = message.details.retry_after_seconds;
  return typeof seconds === "number" && seconds >= 0 ? seconds * 1000 : 60_000;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
