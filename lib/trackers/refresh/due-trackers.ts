import "server-only";
import { and, asc, count, eq, inArray, isNull, lte, or } from "drizzle-orm";
import type { SystemContext } from "@/lib/context";
import { carrierConnections, trackers } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/tx";
import type { TrackerRow } from "@/lib/trackers/present-tracker";

/** What a round has to do: due trackers per connection, leaving out connections the carrier asked to wait. */
export async function planRefresh({
  ctx,
  now,
}: {
  ctx: SystemContext;
  now: Date;
}): Promise<{ connectionId: string; due: number }[]> {
  const rows = await ctx.db
    .select({ connectionId: trackers.carrierConnectionId, due: count() })
    .from(trackers)
    .leftJoin(carrierConnections, eq(carrierConnections.id, trackers.carrierConnectionId))
    .where(
      and(
        lte(trackers.nextRefreshAt, now),
        or(isNull(carrierConnections.refreshBackoffUntil), lte(carrierConnections.refreshBackoffUntil, now)),
      ),
    )
    .groupBy(trackers.carrierConnectionId);
  return rows.map((r) => ({ connectionId: r.connectionId, due: Number(r.due) }));
}

/**
 * Claims up to `limit` of a connection's due trackers, oldest due first, by moving their due time to the end of
 * the lease in the same statement. Rows another worker is claiming are skipped (SKIP LOCKED) and a claimed row is
 * no longer due, so no tracker is refreshed twice in a round however many workers run; a worker that dies leaves
 * its trackers due again when the lease ends.
 */
export async function claimDueTrackers(
  db: DbOrTx,
  connectionId: string,
  limit: number,
  now: Date,
  leaseUntil: Date,
): Promise<TrackerRow[]> {
  const due = db
    .select({ id: trackers.id })
    .from(trackers)
    .where(and(eq(trackers.carrierConnectionId, connectionId), lte(trackers.nextRefreshAt, now)))
    .orderBy(asc(trackers.nextRefreshAt))
    .limit(limit)
    .for("update", { skipLocked: true });
  const claimed = await db
    .update(trackers)
    .set({ nextRefreshAt: leaseUntil })
    .where(inArray(trackers.id, due))
    .returning();
  return claimed.sort((a, b) => a.trackingNumber.localeCompare(b.trackingNumber));
}

/** Hands claimed trackers back, due at `at` (never dropped: a later round takes them). */
export async function rescheduleTrackers(db: DbOrTx, rows: TrackerRow[], at: Date): Promise<void> {
  if (rows.length === 0) return;
  await db
    .update(trackers)
    .set({ nextRefreshAt: at })
    .where(
      inArray(
        trackers.id,
        rows.map((r) => r.id),
      ),
    );
}
