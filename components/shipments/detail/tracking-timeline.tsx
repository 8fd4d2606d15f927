import { MapPin } from "lucide-react";
import { DetailCard, Facts } from "@/components/shipments/detail/detail-card";
import { LocalTime } from "@/components/ui/local-time";
import { formatCalendarDate, timelineDays } from "@/lib/dashboard/timeline";
import type { StoredTracker } from "@/lib/schemas/tracker";

const STATUS_WORDS: Record<StoredTracker["status"], string> = {
  pending: "Pending",
  unknown: "Unknown",
  on_hold: "On hold",
  cancelled: "Cancelled",
  delivered: "Delivered",
  in_transit: "In transit",
  delivery_delayed: "Delivery delayed",
  out_for_delivery: "Out for delivery",
  ready_for_pickup: "Ready for pickup",
  delivery_failed: "Delivery failed",
  return_to_sender: "Returning to sender",
  picked_up: "Picked up",
};

/**
 * The tracker's events, newest first, under the day each happened (dashboard.md §4): dates and times are the
 * carrier's, local to the scan, and never converted to the viewer's zone.
 */
export function TrackingTimeline({ tracker }: { tracker: StoredTracker }) {
  const days = timelineDays(tracker.events);
  const facts: [string, React.ReactNode][] = [["Status", STATUS_WORDS[tracker.status] ?? tracker.status]];
  if (tracker.estimated_delivery && !tracker.delivered && tracker.status !== "cancelled")
    facts.push(["Expected", formatCalendarDate(tracker.estimated_delivery.slice(0, 10))]);
  facts.push(["Last checked", tracker.refreshed_at ? <LocalTime timestamp={tracker.refreshed_at} /> : "Not yet"]);
  return (
    <DetailCard title="Tracking">
      <div className="grid gap-4">
        <Facts items={facts} />
        {days.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            {tracker.status === "cancelled"
              ? "No scans: tracking stopped when the label was voided."
              : "No scans yet: the carrier has not reported the parcel."}
          </p>
        ) : (
          <ol className="grid gap-4" aria-label="Tracking events, newest first">
            {days.map((day, d) => (
              <li key={`${day.date}-${d}`} className="grid gap-2">
                <h3 className="text-sm font-semibold">
                  <time dateTime={day.date}>{day.label}</time>
                </h3>
                <ol className="grid gap-3 border-l pl-4">
                  {day.events.map((e, i) => (
                    <li key={`${e.code}-${i}`} className="grid gap-0.5 text-sm">
                      <p>
                        <span className="font-medium tabular-nums">{e.time ?? "—"}</span>{" "}
                        <span className="text-xs text-muted-foreground">local time</span>
                      </p>
                      <p>{e.description}</p>
                      {e.location && (
                        <p className="flex items-center gap-1 text-muted-foreground">
                          <MapPin aria-hidden className="size-3.5 shrink-0" />
                          {e.location}
                        </p>
                      )}
                    </li>
                  ))}
                </ol>
              </li>
            ))}
          </ol>
        )}
      </div>
    </DetailCard>
  );
}
