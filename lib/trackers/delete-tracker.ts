import "server-only";
import { and, eq } from "drizzle-orm";
import { recordAudit } from "@/lib/audit/record";
import { withTransaction, type DomainContext } from "@/lib/context";
import { recordEvents } from "@/lib/webhooks/outbox";
import { trackers } from "@/lib/db/schema";
import type { StoredTracker, TrackerRef } from "@/lib/schemas/tracker";
import { findTrackerRow, loadStoredTracker } from "./load-trackers";

/** Stops tracking and forgets the events; a linked shipment keeps its status and loses its tracker_id. */
export async function deleteTracker({ ctx, id }: { ctx: DomainContext; id: TrackerRef }): Promise<StoredTracker> {
  const row = await findTrackerRow(ctx.db, ctx.org.id, id);
  return withTransaction(ctx, async (txCtx) => {
    const tx = txCtx.db;
    const gone = await loadStoredTracker(tx, row);
    const deleted = await tx
      .delete(trackers)
      .where(and(eq(trackers.orgId, ctx.org.id), eq(trackers.id, row.id)))
      .returning({ id: trackers.id });
    // Deleted by a concurrent request meanwhile: that one told the clients.
    if (deleted.length > 0) {
      await recordEvents(tx, [
        { orgId: row.orgId, type: "tracker.deleted", resourceId: row.id, testMode: row.testMode, data: gone },
      ]);
      await recordAudit(txCtx, {
        action: "tracker.deleted",
        resourceId: row.id,
        summary: { carrier: row.carrierName, status: row.status, shipment_id: gone.shipment_id ?? null },
      });
    }
    return gone;
  });
}
