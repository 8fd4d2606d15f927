import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { recordAudit } from "@/lib/audit/record";
import { withTransaction, type DomainContext } from "@/lib/context";
import { trackers } from "@/lib/db/schema";
import { NotFoundError } from "@/lib/errors";
import { randomHex128 } from "@/lib/random";

/**
 * The id of the tracker's public page (/track/{public_id}): 128 random bits, never the API's trk_ id, made the first
 * time a share link is asked for and the same ever after. Concurrent first asks agree: the one update keeps the value
 * that was there (`coalesce`), so whichever wrote first wins and every caller reads the winner back.
 */
export async function shareTracker({ ctx, id }: { ctx: DomainContext; id: string }): Promise<{ public_id: string }> {
  return withTransaction(ctx, async (tx) => {
    const [row] = await tx.db
      .update(trackers)
      .set({ publicId: sql`coalesce(${trackers.publicId}, ${randomHex128()})` })
      .where(and(eq(trackers.orgId, ctx.org.id), eq(trackers.id, id)))
      .returning({ publicId: trackers.publicId });
    if (!row?.publicId) throw new NotFoundError(`Tracker ${id} does not exist.`);
    // The public id is a capability (anyone holding it reads the page): the log says a link was asked for, not which.
    await recordAudit(tx, { action: "tracker.shared", resourceId: id });
    return { public_id: row.publicId };
  });
}
