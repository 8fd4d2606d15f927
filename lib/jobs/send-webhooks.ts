import "server-only";
import { systemContext } from "@/lib/context";
import { getDb } from "@/lib/db/client";
import { log } from "@/lib/log";
import { onEventsWritten } from "@/lib/webhooks/nudge";
import { purgeAuditEvents } from "@/lib/audit/retention";
import { purgeExpired } from "@/lib/webhooks/retention";
import { planWebhookRound } from "@/lib/webhooks/due-deliveries";
import { runEndpointWorker } from "./endpoint-worker";
import { inngest } from "./inngest";

// Endpoints per step: each step runs its endpoints' workers side by side, so a slow receiver delays only its own
// deliveries (and the end of its step), and a round of many endpoints stays within Inngest's steps per run.
const ENDPOINTS_PER_STEP = 20;
const DELIVER_EVENT = "webhooks/deliver";

/**
 * `send-webhooks`: every minute, and when the service has just written events (`webhooks/deliver`), plan the round,
 * send each endpoint's due deliveries (steps of up to 20 endpoints, run in parallel), and delete what is past the
 * 30-day retention. One run at a time: a trigger that comes while a run is under way is skipped, and the cron
 * catches anything it would have found.
 */
export const sendWebhooksFunction = inngest.createFunction(
  {
    id: "send-webhooks",
    triggers: [{ cron: "* * * * *" }, { event: DELIVER_EVENT }],
    singleton: { mode: "skip" },
  },
  async ({ step }) => {
    const context = async () => systemContext(await getDb(), "inngest");
    const plan = await step.run("plan", async () => planWebhookRound({ ctx: await context(), now: new Date() }));
    const groups: string[][] = [];
    for (let i = 0; i < plan.length; i += ENDPOINTS_PER_STEP) groups.push(plan.slice(i, i + ENDPOINTS_PER_STEP));
    const reports = (
      await Promise.all(
        groups.map((endpointIds) =>
          step.run(`send-${endpointIds[0]}`, async () => {
            const ctx = await context();
            return Promise.all(
              endpointIds.map((endpointId) => runEndpointWorker(ctx, { endpointId, maxDurationMs: 45_000 })),
            );
          }),
        ),
      )
    ).flat();
    const purged = await step.run("purge", async () => purgeExpired({ ctx: await context(), now: new Date() }));
    const auditPurged = await step.run("purge-audit", async () =>
      purgeAuditEvents({ ctx: await context(), now: new Date() }),
    );
    return {
      endpoints: reports.length,
      sent: reports.reduce((n, r) => n + r.sent, 0),
      succeeded: reports.reduce((n, r) => n + r.succeeded, 0),
      failed: reports.reduce((n, r) => n + r.failed, 0),
      purged,
      audit_purged: auditPurged,
    };
  },
);

// A nudge waits this long after an event is written: the writer's transaction has committed by then in practice, and
// one nudge covers every event written meanwhile.
const NUDGE_DELAY_MS = 1000;

/**
 * With Inngest, events written by this process ask for a run about a second later instead of waiting for the next
 * minute. A nudge that comes too early (a transaction still open) or is lost only costs latency: the cron runs
 * anyway.
 */
export function nudgeInngestOnEvents(): void {
  let pending: NodeJS.Timeout | null = null;
  onEventsWritten(() => {
    if (pending) return;
    pending = setTimeout(() => {
      pending = null;
      inngest
        .send({ name: DELIVER_EVENT, data: {} })
        .catch((err) => log().warn({ msg: "webhook nudge not sent", err }));
    }, NUDGE_DELAY_MS);
    pending.unref();
  });
}
