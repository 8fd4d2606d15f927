import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ArrowLeft } from "lucide-react";
import { DetailCard, Facts } from "@/components/shipments/detail/detail-card";
import { ProgressSteps } from "@/components/trackers/progress-steps";
import { StatusBanner } from "@/components/trackers/status-banner";
import { TimelineList } from "@/components/trackers/timeline-list";
import { TrackerActions } from "@/components/trackers/tracker-actions";
import { TestBadge } from "@/components/ui/badge";
import { LocalTime } from "@/components/ui/local-time";
import { requireSession } from "@/lib/dashboard/session";
import { NotFoundError } from "@/lib/errors";
import { getTracker } from "@/lib/trackers/get-tracker";
import { PageTitle } from "@/components/shell/page-header";

export const metadata: Metadata = { title: "Tracker" };

const TRACKER_ID = /^trk_[0-9a-f]{32}$/;

export default async function TrackerPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { ctx } = await requireSession();
  const tracker = TRACKER_ID.test(id)
    ? await getTracker({ ctx, id: { trackerId: id } }).catch((err: unknown) => {
        if (err instanceof NotFoundError) return null;
        throw err;
      })
    : null;
  if (!tracker) notFound();
  const latest = tracker.events[0] ?? null;
  const facts: [string, React.ReactNode][] = [
    [
      "Carrier",
      tracker.carrier_id === tracker.carrier_name
        ? tracker.carrier_name
        : `${tracker.carrier_name} (${tracker.carrier_id})`,
    ],
    [
      "Shipment",
      tracker.shipment_id ? (
        <Link className="text-primary underline underline-offset-2" href={`/shipments/${tracker.shipment_id}`}>
          View the shipment
        </Link>
      ) : (
        "None: tracked by number"
      ),
    ],
    ["Last refresh", tracker.refreshed_at ? <LocalTime timestamp={tracker.refreshed_at} /> : "Not yet"],
    [
      "Next check",
      tracker.next_refresh_at ? <LocalTime timestamp={tracker.next_refresh_at} /> : "None: tracking has ended",
    ],
    ["Tracking since", <LocalTime key="since" timestamp={tracker.created_at} />],
  ];
  return (
    <div className="grid max-w-4xl grid-cols-1 gap-6">
      <Link href="/trackers" className="flex w-fit items-center gap-1 text-sm text-muted-foreground hover:underline">
        <ArrowLeft aria-hidden className="size-4" />
        Trackers
      </Link>
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1">
          <PageTitle className="flex flex-wrap items-center gap-2 font-mono break-all">
            {tracker.tracking_number}
            {tracker.test_mode && <TestBadge />}
          </PageTitle>
          <p className="text-sm text-muted-foreground">{tracker.carrier_name}</p>
        </div>
        <TrackerActions id={tracker.id} trackingNumber={tracker.tracking_number} />
      </header>
      <StatusBanner
        status={tracker.status}
        estimatedDelivery={tracker.estimated_delivery}
        latest={latest && { description: latest.description, date: latest.date }}
      />
      <ProgressSteps status={tracker.status} eventStatuses={tracker.events.map((e) => e.status)} />
      <div className="grid grid-cols-1 items-start gap-6 md:grid-cols-[minmax(0,1fr)_minmax(0,18rem)]">
        <DetailCard title="Timeline">
          <TimelineList events={tracker.events} empty="No scans yet: the carrier has not reported the parcel." />
        </DetailCard>
        <DetailCard title="Details">
          <Facts items={facts} />
        </DetailCard>
      </div>
    </div>
  );
}
