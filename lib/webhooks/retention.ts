import "server-only";
import { and, asc, eq, inArray, lt, sql } from "drizzle-orm";
import type { SystemContext } from "@/lib/context";
import { events, webhookAttempts, webhookEndpoints } from "@/lib/db/schema";
import { EVENT_RETENTION_MS } from "./event-rows";

/**
 * Events and the delivery log are kept 30 days (docs/webhooks.md, "Retention"). The sender's rounds delete what is
 * older in batches, so one run never holds long locks or a long transaction; deleting an event takes its
 * deliveries with it (a delivery still pending after 30 days, to a disabled endpoint, is dropped then).
 */

export async function purgeExpired({
  ctx,
  now,
  batchSize = 1000,
  maxBatches = 20,
}: {
  ctx: SystemContext;
  now: Date;
  batchSize?: number;
  maxBatches?: number;
}): Promise<{ events: number; attempts: number }> {
  const cutoff = new Date(now.getTime() - EVENT_RETENTION_MS);
  const purged = { events: 0, attempts: 0 };
  for (let batch = 0; batch < maxBatches; batch++) {
    const oldest = ctx.db
      .select({ id: events.id })
      .from(events)
      .where(lt(events.createdAt, cutoff))
      .orderBy(asc(events.createdAt))
      .limit(batchSize);
    const gone = await ctx.db.delete(events).where(inArray(events.id, oldest)).returning({ id: events.id });
    purged.events += gone.length;
    if (gone.length < batchSize) break;
  }
  for (let batch = 0; batch < maxBatches; batch++) {
    // Through each endpoint's (endpoint_id, attempted_at) index: exact, and cheap when nothing is old.
    const old = ctx.db
      .select({ id: sql<number>`a.id`.as("id") })
      .from(webhookEndpoints)
      .crossJoinLateral(
        ctx.db
          .select({ id: webhookAttempts.id })
          .from(webhookAttempts)
          .where(and(eq(webhookAttempts.endpointId, webhookEndpoints.id), lt(webhookAttempts.attemptedAt, cutoff)))
          .limit(batchSize)
          .as("a"),
      )
      .limit(batchSize);
    const gone = await ctx.db
      .delete(webhookAttempts)
      .where(inArray(webhookAttempts.id, old))
      .returning({ id: webhookAttempts.id });
    purged.attempts += gone.length;
    if (gone.length < batchSize) break;
  }
  return purged;
}
