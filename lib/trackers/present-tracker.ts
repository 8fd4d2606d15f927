import type { trackers, trackingEvents } from "@/lib/db/schema";
import { formatTimestamp } from "@/lib/timestamp";
import type { StoredTracker, Tracker } from "@/lib/schemas/tracker";

export type TrackerRow = typeof trackers.$inferSelect;
type TrackingEventRow = typeof trackingEvents.$inferSelect;

/** What a tracker is made of, stored or asked of the carrier just now (proxy mode: no id). */
export type TrackerFields = Pick<
  TrackerRow,
  "carrierName" | "carrierId" | "trackingNumber" | "status" | "testMode" | "estimatedDelivery"
> & { id: string | null };
export type EventFields = Pick<
  TrackingEventRow,
  "occurredAt" | "fingerprint" | "date" | "time" | "description" | "location" | "code" | "status"
>;

/**
 * A tracker's events as it shows them: newest first, each once. The first copy of a repeated event is kept, and the
 * sort is stable: events of the same instant keep the order they came in (the carrier's, or the loader's for stored
 * events).
 */
export function eventsNewestFirst<E extends Pick<EventFields, "fingerprint" | "occurredAt">>(events: E[]): E[] {
  const first = new Map<string, E>();
  for (const e of events) if (!first.has(e.fingerprint)) first.set(e.fingerprint, e);
  return [...first.values()].sort((a, b) => b.occurredAt.getTime() - a.occurredAt.getTime());
}

/**
 * The one place a Tracker's JSON is built (docs/api.md, "Resources"): events newest first, each event once (carriers
 * repeat scans across pages and calls), `delivered` exactly when the status is.
 */
export function presentTracker(t: TrackerFields, events: EventFields[]): Tracker {
  const ordered = eventsNewestFirst(events);
  return {
    id: t.id,
    carrier_name: t.carrierName,
    carrier_id: t.carrierId,
    tracking_number: t.trackingNumber,
    events: ordered.map((e) => ({
      date: e.date,
      time: e.time,
      description: e.description,
      location: e.location,
      code: e.code,
      status: e.status,
    })),
    delivered: t.status === "delivered",
    test_mode: t.testMode,
    status: t.status,
    estimated_delivery: t.estimatedDelivery,
  };
}

/** A tracker the organization keeps: the Tracker plus what the service knows about keeping it fresh. */
export function presentStoredTracker(row: TrackerRow, events: EventFields[]): StoredTracker {
  return {
    ...presentTracker(row, events),
    id: row.id,
    shipment_id: row.shipmentId,
    created_at: formatTimestamp(row.createdAt),
    updated_at: formatTimestamp(row.updatedAt),
    refreshed_at: row.refreshedAt ? formatTimestamp(row.refreshedAt) : null,
    next_refresh_at: row.nextRefreshAt ? formatTimestamp(row.nextRefreshAt) : null,
  };
}
