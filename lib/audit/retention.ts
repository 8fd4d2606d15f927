import "server-only";
import { asc, inArray, lt } from "drizzle-orm";
import type { SystemContext } from "@/lib/context";
import { auditEvents } from "@/lib/db/schema";
import { env } from "@/lib/env";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes audit rows older than AUDIT_RETENTION_DAYS (default 365), in batches, so one run never holds long locks or
 * a long transaction. Run beside the webhook retention by the sender's rounds (lib/jobs).
 */
export async function purgeAuditEvents({
  ctx,
  now,
  retentionDays = env().AUDIT_RETENTION_DAYS,
  batchSize = 1000,
  maxBatches = 20,
}: {
  ctx: SystemContext;
  now: Date;
  retentionDays?: number;
  batchSize?: number;
  maxBatches?: number;
}): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS);
  let purged = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const oldest = ctx.db
      .select({ id: auditEvents.id })
      .from(auditEvents)
      .where(lt(auditEvents.createdAt, cutoff))
      .orderBy(asc(auditEvents.createdAt))
      .limit(batchSize);
    const gone = await ctx.db
      .delete(auditEvents)
      .where(inArray(auditEvents.id, oldest))
      .returning({ id: auditEvents.id });
    purged += gone.length;
    if (gone.length < batchSize) break;
  }
  return purged;
}
