import "server-only";
import { systemContext } from "@/lib/context";
import { getDb } from "@/lib/db/client";
import { log } from "@/lib/log";
import { planRefresh } from "@/lib/trackers/refresh/due-trackers";
import { logConnectionRound, refreshConnection } from "@/lib/trackers/refresh/refresh-connection";

/**
 * The embedded default's background refresh: the same core as the Inngest function, on a timer in the server
 * process. Every tick plans a round and starts each connection that is not still busy from an earlier tick, so a
 * slow carrier never holds the others back. One loop per process: it lives on globalThis, so neither requests nor
 * dev-server hot reloads (which re-evaluate modules) start a second one.
 */
export interface RefreshLoop {
  readonly intervalMs: number;
  ticks: number;
  /** Stops ticking and waits (briefly) for calls in flight; their trackers' leases cover anything cut short. */
  stop(): Promise<void>;
}

const KEY = Symbol.for("shipwell.refreshLoop");
type Holder = { [KEY]?: RefreshLoop };

export function currentRefreshLoop(): RefreshLoop | undefined {
  return (globalThis as Holder)[KEY];
}

export function startRefreshLoop({ intervalMs }: { intervalMs: number }): RefreshLoop {
  const holder = globalThis as Holder;
  const existing = holder[KEY];
  if (existing) return existing;

  const inFlight = new Map<string, Promise<void>>();
  let stopping = false;
  let ticking = false;

  const tick = async () => {
    if (stopping || ticking) return;
    ticking = true;
    try {
      const ctx = systemContext(await getDb(), "in_process");
      const plan = await planRefresh({ ctx, now: new Date() });
      loop.ticks++;
      for (const { connectionId } of plan) {
        if (inFlight.has(connectionId) || stopping) continue;
        const run = refreshConnection({ ctx, connectionId, maxDurationMs: Math.max(intervalMs * 3, 30_000) })
          .then((report) => logConnectionRound(ctx, report))
          .catch((err) => ctx.log.error({ msg: "tracker refresh failed", connection_id: connectionId, err }))
          .finally(() => inFlight.delete(connectionId));
        inFlight.set(connectionId, run);
      }
    } catch (err) {
      log().warn({ msg: "tracker refresh tick skipped", err });
    } finally {
      ticking = false;
    }
  };

  const timer = setInterval(() => void tick(), intervalMs);
  // Never the reason a process stays alive.
  timer.unref();
  const first = setTimeout(() => void tick(), Math.min(intervalMs, 1000));
  first.unref();

  const loop: RefreshLoop = {
    intervalMs,
    ticks: 0,
    async stop() {
      stopping = true;
      clearInterval(timer);
      clearTimeout(first);
      process.removeListener("SIGTERM", onSignal);
      process.removeListener("SIGINT", onSignal);
      if (holder[KEY] === loop) delete holder[KEY];
      await Promise.race([Promise.allSettled(inFlight.values()), new Promise((r) => setTimeout(r, 5000).unref())]);
    },
  };

  // Stop cleanly on shutdown, then let the signal do what it would have done (Next.js may have its own handlers).
  function onSignal(signal: NodeJS.Signals) {
    void loop.stop().finally(() => {
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  }
  process.once("SIGTERM", onSignal);
  process.once("SIGINT", onSignal);

  holder[KEY] = loop;
  log().info({ msg: "tracker refresh running in-process", interval_ms: intervalMs });
  return loop;
}
