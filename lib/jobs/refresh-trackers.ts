import "server-only";
import { systemContext } from "@/lib/context";
import { getDb } from "@/lib/db/client";
import { planRefresh } from "@/lib/trackers/refresh/due-trackers";
import { logConnectionRound, refreshConnection } from "@/lib/trackers/refresh/refresh-connection";
import { checkDueRefunds } from "@/lib/shipments/refunds";
import { inngest } from "./inngest";

/**
 * `refresh-trackers`: every minute, plan the round, then one step per connection with due trackers, run in
 * parallel. Each step is retried on its own by Inngest, and one failing or slow carrier is one failing or slow
 * step: the others complete. Only one run at a time, so rounds never overlap. Beside them, one step asks carriers
 * about pending refunds (lib/shipments/refunds.ts).
 */
export const refreshTrackersFunction = inngest.createFunction(
  { id: "refresh-trackers", triggers: [{ cron: "* * * * *" }], concurrency: { limit: 1 } },
  async ({ step }) => {
    const context = async () => systemContext(await getDb(), "inngest");
    const plan = await step.run("plan", async () => planRefresh({ ctx: await context(), now: new Date() }));
    const refunds = step.run("refunds", async () => checkDueRefunds({ ctx: await context(), now: new Date() }));
    const reports = await Promise.all(
      plan.map(({ connectionId }) =>
        step.run(`refresh-${connectionId}`, async () => {
          const ctx = await context();
          const report = await refreshConnection({ ctx, connectionId, maxDurationMs: 45_000 });
          logConnectionRound(ctx, report);
          return report;
        }),
      ),
    );
    return {
      connections: reports.length,
      refreshed: reports.reduce((n, r) => n + r.refreshed, 0),
      failed: reports.reduce((n, r) => n + r.failed, 0),
      backed_off: reports.reduce((n, r) => n + r.backed_off, 0),
      refunds: await refunds,
    };
  },
);
