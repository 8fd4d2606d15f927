import "server-only";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { trackers, trackingEvents } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/tx";
import { NotFoundError } from "@/lib/errors";
import type { StoredTracker, TrackerRef } from "@/lib/schemas/tracker";
import { presentStoredTracker, type TrackerRow } from "./present-tracker";

/** Of two events of one instant, the newer first: the one recorded later (the schema's `seq` says why). */
export const NEWER_OF_AN_INSTANT = sql`${trackingEvents.seq} desc nulls last`;

/**
 * Always scoped by organization: another organization's id is simply not found. A tracking number held by several
 * of the organization's trackers (on different carriers) names the newest of them.
 */
export async function findTrackerRow(db: DbOrTx, orgId: string, ref: string | TrackerRef): Promise<TrackerRow> {
  const by = typeof ref === "string" ? { trackerId: ref } : ref;
  const [row] = await db
    .select()
    .from(trackers)
    .where(
      and(
        eq(trackers.orgId, orgId),
        "trackerId" in by ? eq(trackers.id, by.trackerId) : eq(trackers.trackingNumber, by.trackingNumber),
      ),
    )
    .orderBy(desc(trackers.createdAt), desc(trackers.id))
    .limit(1);
  if (!row) {
    throw new NotFoundError(
      "trackerId" in by
        ? `Tracker ${by.trackerId} does not exist.`
        : `No tracker has the tracking number ${by.trackingNumber}.`,
    );
  }
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
    // Newest first; of one instant, in the carrier's order (then a fixed one), so a tracker reads the same every time.
    .orderBy(desc(trackingEvents.occurredAt), NEWER_OF_AN_INSTANT, asc(trackingEvents.fingerprint));
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
