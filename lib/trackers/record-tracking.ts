import { and, desc, eq, ne, notInArray } from "drizzle-orm";
import { shipments, trackers, trackingEvents } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/tx";
import type { CarrierMessage, TrackerStatus, TrackingResult } from "@/lib/carriers/types";
import type { ShipmentStatus } from "@/lib/schemas/shipment";
import type { TrackerRow } from "./present-tracker";
import {
  FINAL_TRACKER_STATUSES,
  SHIPMENT_STATUSES_TRACKING_CANNOT_MOVE,
  eventFingerprint,
  failureRetryAt,
  isStale,
  mergedStatus,
  nextRefreshAt,
  shipmentStatusFor,
} from "./tracking-rules";

export interface RecordedTracking {
  tracker: TrackerRow;
  /** Events not seen before. */
  newEvents: number;
  /** Anything a client would notice: new events, status or estimated delivery. */
  changed: boolean;
  /** The shipment's new status when this moved it. */
  shipmentStatus: ShipmentStatus | null;
}

/**
 * Merges a carrier's answer into a stored tracker (CONTRACT §7–8): new events stored once (the fingerprint key
 * makes a repeated scan a no-op), status recomputed, next due time set from it, a tracker silent for 90 days
 * retired, and the linked shipment moved. Used by tracker creation, refresh on demand and the background refresh;
 * run it inside a transaction so the tracker and its shipment move together.
 */
export async function recordTracking(
  db: DbOrTx,
  tracker: TrackerRow,
  result: TrackingResult,
  { now = new Date(), timeScale = 1 }: { now?: Date; timeScale?: number } = {},
): Promise<RecordedTracking> {
  const byKey = new Map(
    result.events.map((e) => [
      eventFingerprint(e),
      {
        trackerId: tracker.id,
        orgId: tracker.orgId,
        fingerprint: eventFingerprint(e),
        occurredAt: new Date(e.occurred_at),
        date: e.date,
        time: e.time,
        description: e.description,
        location: e.location,
        code: e.code,
        status: e.status,
      },
    ]),
  );
  const inserted =
    byKey.size === 0 ? [] : await db.insert(trackingEvents).values([...byKey.values()]).onConflictDoNothing().returning({ at: trackingEvents.occurredAt });

  let lastEventAt = tracker.lastEventAt;
  for (const e of inserted) if (!lastEventAt || e.at > lastEventAt) lastEventAt = e.at;

  let newestStatus: TrackerStatus | null = null;
  if (result.status === "unknown") {
    const [newest] = await db
      .select({ status: trackingEvents.status })
      .from(trackingEvents)
      .where(eq(trackingEvents.trackerId, tracker.id))
      .orderBy(desc(trackingEvents.occurredAt))
      .limit(1);
    newestStatus = newest?.status ?? null;
  }
  let status = mergedStatus(result.status, newestStatus, tracker.status);
  let next = nextRefreshAt(status, now, { timeScale });
  let retiredAt: Date | null = null;
  if (!FINAL_TRACKER_STATUSES.has(status) && isStale(lastEventAt, tracker.createdAt, now)) {
    // CONTRACT §8: silent for 90 days, the parcel's fate is unknown and asking again is pointless.
    status = "unknown";
    next = null;
    retiredAt = now;
  }
  const estimatedDelivery = result.estimated_delivery;
  const changed = inserted.length > 0 || status !== tracker.status || estimatedDelivery !== tracker.estimatedDelivery;

  const [updated] = await db
    .update(trackers)
    .set({
      status,
      estimatedDelivery,
      lastEventAt,
      refreshedAt: now,
      nextRefreshAt: next,
      retiredAt,
      refreshFailures: 0,
      lastError: null,
      ...(changed ? { updatedAt: now } : {}),
    })
    .where(and(eq(trackers.orgId, tracker.orgId), eq(trackers.id, tracker.id)))
    .returning();

  const shipmentStatus = tracker.shipmentId ? await followTracker(db, tracker.orgId, tracker.shipmentId, status, now) : null;
  return { tracker: updated ?? tracker, newEvents: inserted.length, changed, shipmentStatus };
}

/** CONTRACT §7: the shipment follows its tracker, except out of the states nothing leaves (or `created`). */
export async function followTracker(
  db: DbOrTx,
  orgId: string,
  shipmentId: string,
  status: TrackerStatus,
  now = new Date(),
): Promise<ShipmentStatus | null> {
  const target = shipmentStatusFor(status);
  if (!target) return null;
  const moved = await db
    .update(shipments)
    .set({ status: target, updatedAt: now })
    .where(
      and(
        eq(shipments.orgId, orgId),
        eq(shipments.id, shipmentId),
        ne(shipments.status, target),
        notInArray(shipments.status, [...SHIPMENT_STATUSES_TRACKING_CANNOT_MOVE]),
      ),
    )
    .returning({ status: shipments.status });
  return moved[0]?.status ?? null;
}

/**
 * A refresh that failed for this tracker (the carrier refused the number, timed out, …): nothing the client sees
 * changes; the error is kept, the next try backs off, and a tracker silent for 90 days is retired all the same.
 */
export async function recordTrackingFailure(
  db: DbOrTx,
  tracker: TrackerRow,
  messages: CarrierMessage[],
  { now = new Date(), timeScale = 1 }: { now?: Date; timeScale?: number } = {},
): Promise<void> {
  const failures = tracker.refreshFailures + 1;
  const retire = tracker.status !== "cancelled" && !FINAL_TRACKER_STATUSES.has(tracker.status) && isStale(tracker.lastEventAt, tracker.createdAt, now);
  await db
    .update(trackers)
    .set({
      refreshFailures: failures,
      lastError: messages,
      ...(retire
        ? { status: "unknown" as const, nextRefreshAt: null, retiredAt: now, updatedAt: now }
        : { nextRefreshAt: failureRetryAt(failures, now, { timeScale }) }),
    })
    .where(and(eq(trackers.orgId, tracker.orgId), eq(trackers.id, tracker.id)));
}
