import { env, isBuildPhase, trackerRefreshRunner } from "@/lib/env";
import { log } from "@/lib/log";
import { getDb } from "@/lib/db/client";

/**
 * Open the database, migrate and bootstrap at start, so the first API key is printed then rather than on the first
 * request. A database that is down is not fatal: requests answer 503 and the next one tries again. Without Inngest
 * the background tracker refresh starts here, once per server process.
 */
export async function startServer(): Promise<void> {
  if (isBuildPhase()) return;
  try {
    await getDb();
  } catch (err) {
    log().error({ msg: "database not ready at start; requests will retry", err: (err as Error).message });
  }
  if (trackerRefreshRunner() === "in_process") {
    const { startRefreshLoop } = await import("@/lib/jobs/scheduler");
    startRefreshLoop({ intervalMs: env().REFRESH_TICK_SECONDS * 1000 });
  }
}
