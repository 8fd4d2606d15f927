import "server-only";
import type { DomainContext } from "@/lib/context";
import type { StoredTracker, TrackerRef } from "@/lib/schemas/tracker";
import { findTrackerRow, loadStoredTracker } from "./load-trackers";

export async function getTracker({ ctx, id }: { ctx: DomainContext; id: TrackerRef }): Promise<StoredTracker> {
  return loadStoredTracker(ctx.db, await findTrackerRow(ctx.db, ctx.org.id, id));
}
