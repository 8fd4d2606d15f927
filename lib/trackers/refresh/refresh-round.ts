import type { Db } from "@/lib/db/tx";
import { log } from "@/lib/log";
import { planRefresh } from "./due-trackers";
import { refreshConnection, type ConnectionRoundReport, type RefreshOptions } from "./refresh-connection";

export interface RoundReport {
  connections: ConnectionRoundReport[];
  duration_ms: number;
}

/** One log line per connection per round: what an operator needs to see a carrier throttling or failing. */
export function logConnectionRound(report: ConnectionRoundReport, runner: string): void {
  if (report.due === 0) return;
  const level = report.failed > 0 || report.backed_off > 0 || report.rate_limited_calls > 0 ? "warn" : "info";
  log()[level]({ msg: "tracker_refresh", runner, ...report });
}

/**
 * Every connection with due trackers, all at once (each within its own budget). The in-process scheduler and
 * the Inngest function both come down to refreshConnection; this is the plain "do one whole round" form used by
 * the embedded default's first tick, tests and the bench.
 */
export async function refreshRound(db: Db, options: RefreshOptions & { runner?: string } = {}): Promise<RoundReport> {
  const started = performance.now();
  const plan = await planRefresh(db, (options.now ?? (() => new Date()))());
  const connections = await Promise.all(
    plan.map(async ({ connectionId }) => {
      const report = await refreshConnection(db, connectionId, options);
      logConnectionRound(report, options.runner ?? "round");
      return report;
    }),
  );
  return { connections, duration_ms: Math.round(performance.now() - started) };
}
