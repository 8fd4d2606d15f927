import { createHash } from "node:crypto";
import type { TrackerStatus, TrackingEvent } from "@/lib/carriers/types";
import type { ShipmentStatus } from "@/lib/schemas/shipment";

/**
 * The tracking rules of docs/api.md ("Managed mode: trackers", "Background tracker refresh") in one place, shared by managed trackers (create, refresh on demand) and the
 * background refresh: event identity, the tracker's status after a merge, what the shipment becomes, and when the
 * tracker is next due. Pure functions; lib/trackers/record-tracking.ts applies them to the database.
 */

/**
 * No further refresh: the parcel's story is over. `lost` is in it: the carrier has given the parcel up (lost,
 * destroyed, seized, disposed of), and what remains is a claim, not tracking; a refresh on demand still asks, for the
 * rare parcel that turns up. `return_to_sender` is not in it: the parcel is still travelling back, and becomes final
 * once it is delivered back (see mergedStatus and isDeliveredBack).
 */
export const FINAL_TRACKER_STATUSES: ReadonlySet<TrackerStatus> = new Set(["delivered", "lost", "cancelled"]);

/** Trackers with no new event for this long are retired (docs/api.md, "Background tracker refresh"). */
export const RETIRE_AFTER_MS = 90 * 24 * 60 * 60 * 1000;

/** A carrier event's identity: carriers repeat scans across calls and pages; the same scan is stored once. */
export function eventFingerprint(e: Pick<TrackingEvent, "occurred_at" | "code" | "description" | "location">): string {
  const instant = new Date(e.occurred_at).toISOString();
  return createHash("sha256")
    .update([instant, e.code, e.description, e.location].join("\u0000"))
    .digest("hex")
    .slice(0, 32);
}

/** A carrier's event with its identity and instant, as stored and as presented. */
export function eventFields(e: TrackingEvent) {
  return {
    occurredAt: new Date(e.occurred_at),
    fingerprint: eventFingerprint(e),
    date: e.date,
    time: e.time,
    description: e.description,
    location: e.location,
    code: e.code,
    status: e.status,
  };
}

/**
 * The tracker's status after a refresh: cancelled stays cancelled; otherwise the carrier's overall status when it states one; when it answers
 * `unknown` (no summary), the newest event's status; failing both, what the tracker already said.
 */
export function mergedStatus(
  carrierStatus: TrackerStatus,
  newestEventStatus: TrackerStatus | null,
  previous: TrackerStatus | null,
): TrackerStatus {
  // A cancelled tracker belongs to a voided label: whatever the carrier still shows for the number, it will not move.
  if (previous === "cancelled") return "cancelled";
  // Delivered back to the sender is the end of a return, not a delivery to the recipient.
  if (isDeliveredBack(carrierStatus, previous)) return "return_to_sender";
  if (carrierStatus !== "unknown") return carrierStatus;
  return newestEventStatus ?? previous ?? "unknown";
}

/** A returning parcel reported delivered has reached its sender: the tracker is final. */
export function isDeliveredBack(carrierStatus: TrackerStatus, previous: TrackerStatus | null): boolean {
  return previous === "return_to_sender" && carrierStatus === "delivered";
}

/** Tracker status → shipment status (docs/api.md, "Managed mode: trackers"); null leaves the shipment as it is. */
export function shipmentStatusFor(status: TrackerStatus): ShipmentStatus | null {
  switch (status) {
    case "delivered":
      return "delivered";
    case "out_for_delivery":
      return "out_for_delivery";
    case "delivery_failed":
    case "return_to_sender":
      return "delivery_failed";
    // Not needs_attention: the shipper has to claim or send again, and must not wait for a delivery.
    case "lost":
      return "lost";
    case "on_hold":
    case "delivery_delayed":
    // Held at a counter: the recipient has to act, which is what needs_attention tells a clerk.
    case "ready_for_pickup":
      return "needs_attention";
    case "picked_up":
    case "in_transit":
      return "in_transit";
    case "pending":
    case "unknown":
    case "cancelled":
      return null;
  }
}

const MINUTE = 60 * 1000;

/** How long until a tracker in this status is worth asking about again. */
export const REFRESH_INTERVAL_MS: Record<TrackerStatus, number> = {
  out_for_delivery: 15 * MINUTE,
  delivery_failed: 30 * MINUTE,
  in_transit: 60 * MINUTE,
  picked_up: 60 * MINUTE,
  delivery_delayed: 60 * MINUTE,
  on_hold: 2 * 60 * MINUTE,
  ready_for_pickup: 2 * 60 * MINUTE,
  pending: 4 * 60 * MINUTE,
  unknown: 4 * 60 * MINUTE,
  delivered: 0,
  lost: 0,
  cancelled: 0,
  return_to_sender: 4 * 60 * MINUTE,
};

/**
 * When the tracker is next due, or null when it is final. ±10 % jitter spreads trackers created together
 * (a batch of labels bought in one go) over time instead of hitting the carrier in one burst. `timeScale` shrinks
 * the interval for carriers whose parcels move on a simulated clock (the sandbox).
 */
export function nextRefreshAt(
  status: TrackerStatus,
  now: Date,
  { timeScale = 1, random = Math.random }: { timeScale?: number; random?: () => number } = {},
): Date | null {
  if (FINAL_TRACKER_STATUSES.has(status)) return null;
  const base = REFRESH_INTERVAL_MS[status] * timeScale;
  const jitter = base * 0.1 * (random() * 2 - 1);
  return new Date(now.getTime() + base + jitter);
}

/** A new tracker of a freshly bought label is first looked at soon: carriers post the pickup scan within hours. */
export const FIRST_REFRESH_AFTER_PURCHASE_MS = 15 * MINUTE;

/** True when the tracker has heard nothing new for RETIRE_AFTER_MS (counted from its newest event or creation). */
export function isStale(lastEventAt: Date | null, createdAt: Date, now: Date): boolean {
  return now.getTime() - (lastEventAt ?? createdAt).getTime() >= RETIRE_AFTER_MS;
}

/** After a failed refresh: 15 min, 30 min, 1 h … doubling up to 12 h (scaled and jittered like nextRefreshAt). */
export function failureRetryAt(
  failures: number,
  now: Date,
  { timeScale = 1, random = Math.random }: { timeScale?: number; random?: () => number } = {},
): Date {
  const base = Math.min(15 * MINUTE * 2 ** Math.max(0, failures - 1), 12 * 60 * MINUTE) * timeScale;
  return new Date(now.getTime() + base + base * 0.1 * (random() * 2 - 1));
}
