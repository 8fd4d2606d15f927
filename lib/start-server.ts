import "server-only";
import { bootstrap } from "@/lib/bootstrap";
import { systemContext } from "@/lib/context";
import { getDb } from "@/lib/db/client";
import { isDatabaseUnavailable } from "@/lib/db/unavailable";
import { batchRunner, env, isBuildPhase, trackerRefreshRunner, webhookDeliveryRunner } from "@/lib/env";
import { log } from "@/lib/log";

// A database that is down at start is asked again this often until the bootstrap has run.
const BOOTSTRAP_RETRY_MS = 5_000;
// The in-process webhook sender looks for due deliveries this often.
const WEBHOOK_TICK_MS = 1_000;
// The in-process batch runner looks for batches to work this often.
const BATCH_TICK_MS = 1_000;

/**
 * Once per server process: open the database and bootstrap it, so the first API key is printed at start rather than
 * on the first request. A database that is down is not fatal: requests answer 503 and retry on their own, and the
 * bootstrap is tried again in the background until it runs. Without Inngest the background tracker refresh and the
 * webhook sender start here too; with it, events written here nudge the webhook function.
 */
export async function startServer(): Promise<void> {
  if (isBuildPhase()) return;
  // Several instances may share a Postgres: the limits are the deployment's, settled through it. The embedded
  // database is one process's, whose buckets in memory are the whole truth.
  if (env().DATABASE_URL) await shareLimits();
  await bootstrapUntilDone();
  if (trackerRefreshRunner() === "in_process") {
    const { startRefreshLoop } = await import("@/lib/jobs/scheduler");
    startRefreshLoop({ intervalMs: env().REFRESH_TICK_SECONDS * 1000 });
  }
  if (batchRunner() === "in_process") {
    const { startBatchLoop } = await import("@/lib/jobs/scheduler");
    startBatchLoop({ intervalMs: BATCH_TICK_MS });
  }
  const webhooks = webhookDeliveryRunner();
  if (webhooks === "in_process") {
    const { startWebhookLoop } = await import("@/lib/jobs/scheduler");
    startWebhookLoop({ intervalMs: WEBHOOK_TICK_MS });
  } else if (webhooks === "inngest") {
    const { nudgeInngestOnEvents } = await import("@/lib/jobs/send-webhooks");
    nudgeInngestOnEvents();
  }
}

async function shareLimits(): Promise<void> {
  const [{ shareApiLimits }, { shareSignInLimits }] = await Promise.all([
    import("@/lib/api/rate-limit-store"),
    import("@/lib/api/auth-endpoint"),
  ]);
  shareApiLimits();
  shareSignInLimits();
}

async function bootstrapUntilDone(): Promise<void> {
  try {
    await bootstrap({ ctx: systemContext(await getDb(), "start") });
  } catch (err) {
    if (!isDatabaseUnavailable(err)) {
      // Not the database being away (a data folder held by another process, a bad configuration): retrying
      // would only repeat it. Requests still answer, and the next start tries again.
      log().error({ msg: "bootstrap failed at start", err });
      return;
    }
    log().error({ msg: "database not ready at start; requests will retry", err });
    setTimeout(() => void bootstrapUntilDone(), BOOTSTRAP_RETRY_MS).unref();
  }
}
