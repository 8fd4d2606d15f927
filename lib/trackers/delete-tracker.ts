import "server-only";
import { and, eq } from "drizzle-orm";
import type { DomainContext } from "@/lib/context";
import { trackers } from "@/lib/db/schema";
import type { StoredTracker, TrackerRef } from "@/lib/schemas/tracker";
import { findTrackerRow, loadStoredTracker } from "./load-trackers";

/** Stops tracking and forgets the events; a linked shipment keeps its status and loses its tracker_id. */
export async function deleteTracker({ ctx, id }: { ctx: DomainContext; id: TrackerRef }): Promise<StoredTracker> {
  const row = await findTrackerRow(ctx.db, ctx.org.id, id);
  const gone = await loadStoredTracker(ctx.db, row);
  await ctx.db.delete(trackers).where(and(eq(trackers.orgId, ctx.org.id), eq(trackers.id, row.id)));
  return gone;
}
