import Link from "next/link";
import { DetailCard, Facts } from "@/components/shipments/detail/detail-card";
import { ShareLinkButton } from "@/components/trackers/share-link-button";
import { TimelineList } from "@/components/trackers/timeline-list";
import { TRACKER_STATUS_DISPLAY } from "@/components/trackers/tracker-status-badge";
import { LocalTime } from "@/components/ui/local-time";
import { dayText } from "@/lib/client/format";
import type { StoredTracker } from "@/lib/schemas/tracker";

/** The shipment's tracker: status, expected date, its events, and a share link for the recipient. */
export function TrackingTimeline({ tracker }: { tracker: StoredTracker }) {
  const facts: [string, React.ReactNode][] = [["Status", TRACKER_STATUS_DISPLAY[tracker.status].label]];
  if (tracker.estimated_delivery && !tracker.delivered && tracker.status !== "cancelled")
    facts.push(["Expected", dayText(tracker.estimated_delivery.slice(0, 10))]);
  facts.push(["Last checked", tracker.refreshed_at ? <LocalTime timestamp={tracker.refreshed_at} /> : "Not yet"]);
  return (
    <DetailCard title="Tracking">
      <div className="grid gap-4">
        <Facts items={facts} />
        <div className="flex flex-wrap items-center gap-2">
          <ShareLinkButton trackerId={tracker.id} />
          <Link className="text-sm text-primary underline underline-offset-2" href={`/trackers/${tracker.id}`}>
            Open tracker
          </Link>
        </div>
        <TimelineList
          events={tracker.events}
          empty={
            tracker.status === "cancelled"
              ? "No scans: tracking stopped when the label was voided."
              : "No scans yet: the carrier has not reported the parcel."
          }
        />
      </div>
    </DetailCard>
  );
}
