import type { TrackerStatus, TrackingEvent, TrackingResult } from "@/lib/carriers/types";
import type { trackers, trackingEvents } from "@/lib/db/schema";
import { formatTimestamp } from "@/lib/schemas/common";
import type { StoredTracker, Tracker, TrackingEvent as PublicEvent } from "@/lib/schemas/tracker";
import { eventFingerprint } from "./tracking-rules";

export type TrackerRow = typeof trackers.$inferSelect;
export type TrackingEventRow = typeof trackingEvents.$inferSelect;

/** CONTRACT §7 once for every carrier: newest first, each event once (carriers repeat scans across pages). */
export function orderEvents(events: TrackingEvent[]): TrackingEvent[] {
  const seen = new Set<string>();
  return [...events]
    .sort((a, b) => Date.parse(b.occurred_at) - Date.parse(a.occurred_at))
    .filter((e) => {
      const key = eventFingerprint(e);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

const presentEvent = (e: Omit<PublicEvent, "status"> & { status: TrackerStatus }): PublicEvent => ({
  date: e.date,
  time: e.time,
  description: e.description,
  location: e.location,
  code: e.code,
  status: e.status,
});

/** Proxy tracking: the carrier's answer as a Tracker, nothing stored (id null). */
export function presentTracker(
  result: TrackingResult,
  connection: { carrierName: string; carrierId: string; testMode: boolean },
  id: string | null = null,
): Tracker {
  return {
    id,
    carrier_name: connection.carrierName,
    carrier_id: connection.carrierId,
    tracking_number: result.tracking_number,
    events: orderEvents(result.events).map(presentEvent),
    delivered: result.status === "delivered",
    test_mode: connection.testMode,
    status: result.status,
    estimated_delivery: result.estimated_delivery,
  };
}

/** A stored tracker; `events` are its stored events (each stored once, by fingerprint). */
export function presentStoredTracker(row: TrackerRow, events: TrackingEventRow[]): StoredTracker {
  const ordered = [...events].sort(
    (a, b) => b.occurredAt.getTime() - a.occurredAt.getTime() || a.fingerprint.localeCompare(b.fingerprint),
  );
  return {
    id: row.id,
    carrier_name: row.carrierName,
    carrier_id: row.carrierId,
    tracking_number: row.trackingNumber,
    events: ordered.map(presentEvent),
    delivered: row.status === "delivered",
    test_mode: row.testMode,
    status: row.status,
    estimated_delivery: row.estimatedDelivery,
    shipment_id: row.shipmentId,
    created_at: formatTimestamp(row.createdAt),
    updated_at: formatTimestamp(row.updatedAt),
    refreshed_at: row.refreshedAt ? formatTimestamp(row.refreshedAt) : null,
    next_refresh_at: row.nextRefreshAt ? formatTimestamp(row.nextRefreshAt) : null,
  };
}
