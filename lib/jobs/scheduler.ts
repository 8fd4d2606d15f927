import "server-only";
import { systemContext, type SystemContext } from "@/lib/context";
import { getDb } from "@/lib/db/client";
import { log } from "@/lib/log";
import { planRefresh } from "@/lib/trackers/refresh/due-trackers";
import { logConnectionRound, refreshConnection } from "@/lib/trackers/refresh/refresh-connection";
import { checkDueRefunds } from "@/lib/shipments/refunds";
import { purgeAuditEvents } from "@/lib/audit/retention";
import { purgeExpired } from "@/lib/webhooks/retention";
import { planWebhookRound } from "@/lib/webhooks/due-deliveries";
import { runEndpointWorker } from "./endpoint-worker";
import { onEventsWritten } from "@/lib/webhooks/nudge";
import { activeBatches } from "@/lib/batches/manage-batch";
import { runBatch } from "@/lib/batches/run-batch";

/**
 * The embedded default's background work: the same cores as the Inngest functions, on timers in the server
 * process. Every tick of a loop plans its work and starts each unit (a carrier connection, a webhook endpoint) that is
 * not still busy from an earlier tick, so a slow carrier or receiver never holds the others back. One loop of each
 * kind per process: they live on globalThis, so neither requests nor dev-server hot reloads (which re-evaluate
 * modules) start a second one.
 */
export interface BackgroundLoop {
  readonly intervalMs: number;
  ticks: number;
  /** Stops ticking and waits (briefly) for work in flight; leases cover anything cut short. */
  stop(): Promise<void>;
}
/** The refund round's unit key: never a connection id (those start with `car_`). */
const REFUNDS_UNIT = "refunds";

/** The tracker refresh's loop. */
export type RefreshLoop = BackgroundLoop;

const REFRESH_KEY = Symbol.for("shipwell.refreshLoop");
const BATCH_KEY = Symbol.for("shipwell.batchLoop");
const WEBHOOK_KEY = Symbol.for("shipwell.webhookLoop");
const SIGNALS_KEY = Symbol.for("shipwell.loopSignals");
type Holder = {
  [REFRESH_KEY]?: BackgroundLoop;
  [WEBHOOK_KEY]?: BackgroundLoop;
  [BATCH_KEY]?: BackgroundLoop;
  [SIGNALS_KEY]?: true;
};
const holder = globalThis as Holder;

export function currentRefreshLoop(): RefreshLoop | undefined {
  return holder[REFRESH_KEY];
}

export function currentWebhookLoop(): BackgroundLoop | undefined {
  return holder[WEBHOOK_KEY];
}

/**
 * A loop: `tick` plans and starts units by key through `start`, which skips a key still in flight (and any beyond
 * `maxInFlight`). A tick never overlaps the previous one. `nudges` receives a function that asks for a tick sooner
 * than the timer's: now if no tick runs, else right after the one running; and a unit in flight when it is called
 * ticks again when it ends (it may have missed what the nudge is about, and its key was skipped meanwhile).
 */
function startLoop(
  key: typeof REFRESH_KEY | typeof WEBHOOK_KEY | typeof BATCH_KEY,
  what: string,
  intervalMs: number,
  maxInFlight: number,
  tick: (
    ctx: SystemContext,
    start: (unit: string, run: () => Promise<void>) => void,
    stopping: AbortSignal,
  ) => Promise<void>,
  nudges?: (nudge: (() => void) | null) => void,
): BackgroundLoop {
  const existing = holder[key];
  if (existing) return existing;

  const inFlight = new Map<string, Promise<void>>();
  const stopping = new AbortController();
  let ticking = false;
  // performance.now() of the last nudge, and whether one came while a tick ran.
  let nudgedAt = -1;
  let again = false;
  let soon: NodeJS.Timeout | null = null;
  const tickSoon = () => {
    if (soon || stopping.signal.aborted) return;
    soon = setTimeout(() => {
      soon = null;
      onTick(true);
    }, 0);
    soon.unref();
  };
  const start = (unit: string, run: () => Promise<void>) => {
    if (stopping.signal.aborted || inFlight.has(unit) || inFlight.size >= maxInFlight) return;
    const startedAt = performance.now();
    inFlight.set(
      unit,
      run().finally(() => {
        inFlight.delete(unit);
        if (nudgedAt > startedAt) tickSoon();
      }),
    );
  };

  // The tick in progress, if any: stop() waits for it as for the units it started, so nothing of the loop still
  // touches the database once stop() has returned.
  let ticked: Promise<void> = Promise.resolve();
  // A timer tick while one runs is dropped; a nudge's is run right after it.
  const onTick = (nudged = false) => {
    if (stopping.signal.aborted) return;
    if (ticking) {
      again ||= nudged;
      return;
    }
    ticking = true;
    again = false;
    ticked = (async () => {
      try {
        await tick(systemContext(await getDb(), "in_process"), start, stopping.signal);
        loop.ticks++;
      } catch (err) {
        log().warn({ msg: `${what} tick skipped`, err });
      } finally {
        ticking = false;
        if (again) tickSoon();
      }
    })();
  };

  const timer = setInterval(onTick, intervalMs);
  // Never the reason a process stays alive.
  timer.unref();
  const first = setTimeout(onTick, Math.min(intervalMs, 1000));
  first.unref();

  const loop: BackgroundLoop = {
    intervalMs,
    ticks: 0,
    async stop() {
      stopping.abort();
      clearInterval(timer);
      clearTimeout(first);
      if (soon) clearTimeout(soon);
      nudges?.(null);
      if (holder[key] === loop) delete holder[key];
      const finished = ticked.then(() => Promise.allSettled(inFlight.values()));
      await Promise.race([finished, new Promise((r) => setTimeout(r, 5000).unref())]);
    },
  };
  holder[key] = loop;
  stopOnSignals();
  log().info({ msg: `${what} running in-process`, interval_ms: intervalMs });
  nudges?.(() => {
    nudgedAt = performance.now();
    onTick(true);
  });
  return loop;
}

/**
 * Stop every loop cleanly on shutdown, then let the signal do what it would have done (Next.js may have its own
 * handlers). One handler for all loops, so the process is not ended while one of them is still finishing.
 */
function stopOnSignals() {
  if (holder[SIGNALS_KEY]) return;
  holder[SIGNALS_KEY] = true;
  const onSignal = (signal: NodeJS.Signals) => {
    process.removeListener("SIGTERM", onSignal);
    process.removeListener("SIGINT", onSignal);
    delete holder[SIGNALS_KEY];
    const loops = [holder[REFRESH_KEY], holder[WEBHOOK_KEY], holder[BATCH_KEY]].filter((l) => l !== undefined);
    void Promise.allSettled(loops.map((l) => l.stop())).finally(() => {
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  };
  process.once("SIGTERM", onSignal);
  process.once("SIGINT", onSignal);
}

/**
 * The background tracker refresh: one independent run per connection with due trackers, and beside them the round
 * that asks carriers about pending refunds (lib/shipments/refunds.ts).
 */
export function startRefreshLoop({ intervalMs }: { intervalMs: number }): RefreshLoop {
  return startLoop(REFRESH_KEY, "tracker refresh", intervalMs, Infinity, async (ctx, start) => {
    start(REFUNDS_UNIT, () =>
      checkDueRefunds({ ctx, now: new Date() })
        .then((report) => {
          if (report.checked > 0) ctx.log.info({ msg: "refund_round", ...report });
        })
        .catch((err) => ctx.log.error({ msg: "refund check failed", err })),
    );
    const plan = await planRefresh({ ctx, now: new Date() });
    for (const { connectionId } of plan) {
      start(connectionId, () =>
        refreshConnection({ ctx, connectionId, maxDurationMs: Math.max(intervalMs * 3, 30_000) })
          .then((report) => logConnectionRound(ctx, report))
          .catch((err) => ctx.log.error({ msg: "tracker refresh failed", connection_id: connectionId, err })),
      );
    }
  });
}

// Receivers worked at once per process; a dead one holds a slot for at most its 10 s timeout per attempt.
const WEBHOOK_WORKERS = 32;
const PURGE_EVERY_MS = 60_000;

/**
 * The webhook sender: a worker per endpoint with due deliveries, and about once a minute the 30-day retention of
 * events and the audit log's (AUDIT_RETENTION_DAYS). Events this process writes start a round at once (a nudge).
 */
export function startWebhookLoop({ intervalMs }: { intervalMs: number }): BackgroundLoop {
  let lastPurge = 0;
  return startLoop(
    WEBHOOK_KEY,
    "webhook sender",
    intervalMs,
    WEBHOOK_WORKERS + 1,
    async (ctx, start, stopping) => {
      const now = new Date();
      if (now.getTime() - lastPurge >= PURGE_EVERY_MS) {
        lastPurge = now.getTime();
        // One unit for both retentions: they share the purge's slot beside the 32 workers, one after the other.
        start("purge", async () => {
          await purgeExpired({ ctx, now })
            .then((purged) => {
              if (purged.events + purged.attempts > 0) ctx.log.info({ msg: "webhook_retention", ...purged });
            })
            .catch((err) => ctx.log.error({ msg: "webhook retention failed", err }));
          await purgeAuditEvents({ ctx, now })
            .then((purged) => {
              if (purged > 0) ctx.log.info({ msg: "audit_retention", audit_events: purged });
            })
            .catch((err) => ctx.log.error({ msg: "audit retention failed", err }));
        });
      }
      for (const endpointId of await planWebhookRound({ ctx, now })) {
        start(endpointId, async () => {
          await runEndpointWorker(ctx, { endpointId, maxDurationMs: 30_000, signal: stopping });
        });
      }
    },
    nudgeOnEvents,
  );
}

// Events written by this process start a round this long after (their transaction has committed by then in
// practice; one that has not is picked up by the next nudge or tick). One nudge covers every event meanwhile.
const NUDGE_DELAY_MS = 50;

/** The outbox's signal (lib/webhooks/nudge.ts) as a nudge of the in-process sender: lag of ~50 ms, not a tick. */
function nudgeOnEvents(nudge: (() => void) | null) {
  if (!nudge) return onEventsWritten(() => {});
  let pending: NodeJS.Timeout | null = null;
  onEventsWritten(() => {
    if (pending) return;
    pending = setTimeout(() => {
      pending = null;
      nudge();
    }, NUDGE_DELAY_MS);
    pending.unref();
  });
}

/**
 * The batch runner without Inngest: every tick, a round for each active batch not already being worked here
 * (run-batch.ts: rows claimed with SKIP LOCKED and a lease, so other instances work the same batch beside it, and a
 * restart takes over rows whose lease ran out). Eight rounds at once; a freed slot goes to the batch this process
 * started least recently (never first, then in activeBatches' order, itself least recently worked first): a batch
 * whose round just ended goes behind every other, so eight long batches cannot keep the rest waiting.
 */
export function startBatchLoop({ intervalMs }: { intervalMs: number }): BackgroundLoop {
  const startedAt = new Map<string, number>();
  let starts = 0;
  return startLoop(BATCH_KEY, "batch runner", intervalMs, 8, async (ctx, start) => {
    const ids = await activeBatches(ctx.db);
    const listed = new Set(ids);
    for (const id of startedAt.keys()) if (!listed.has(id)) startedAt.delete(id);
    const turn = (id: string) => startedAt.get(id) ?? -1;
    for (const batchId of [...ids].sort((a, b) => turn(a) - turn(b))) {
      start(batchId, () => {
        startedAt.set(batchId, starts++);
        return runBatch({ ctx, batchId, maxDurationMs: 30_000 })
          .then((round) => {
            if (round.worked > 0)
              ctx.log.info({ msg: "batch_round", batch_id: batchId, worked: round.worked, state: round.state });
          })
          .catch((err) => ctx.log.error({ msg: "batch round failed", batch_id: batchId, err }));
      });
    }
  });
}
