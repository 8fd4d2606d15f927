import "server-only";
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import { trackers, trackingEvents } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/tx";
import { NotFoundError } from "@/lib/errors";
import type { StoredTracker } from "@/lib/schemas/tracker";
import { presentStoredTracker, type TrackerRow } from "./present-tracker";

/** Always scoped by organization: another organization's id is simply not found. */
export async function findTrackerRow(db: DbOrTx, orgId: string, id: string): Promise<TrackerRow> {
  const [row] = await db
    .select()
    .from(trackers)
    .where(and(eq(trackers.orgId, orgId), eq(trackers.id, id)));
  if (!row) throw new NotFoundError(`Tracker ${id} does not exist.`);
  return row;
}

/** Trackers with their events in one more query, whatever their number; presented (presentStoredTracker). */
export async function loadStoredTrackers(db: DbOrTx, orgId: string, rows: TrackerRow[]): Promise<StoredTracker[]> {
  if (rows.length === 0) return [];
  const events = await db
    .select()
    .from(trackingEvents)
    .where(
      and(
        eq(trackingEvents.orgId, orgId),
        inArray(
          trackingEvents.trackerId,
          rows.map((r) => r.id),
        ),
      ),
    )
    // Newest first, and a fixed order for events of the same instant, so a tracker reads the same every time.
    .orderBy(desc(trackingEvents.occurredAt), asc(trackingEvents.fingerprint));
  return rows.map((row) =>
    presentStoredTracker(
      row,
      events.filter((e) => e.trackerId === row.id),
    ),
  );
}

export async function loadStoredTracker(db: DbOrTx, row: TrackerRow): Promise<StoredTracker> {
  const [tracker] = await loadStoredTrackers(db, row.orgId, [row]);
  return tracker!;
}
