import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ProgressSteps } from "@/components/trackers/progress-steps";
import { StatusBanner } from "@/components/trackers/status-banner";
import { TimelineList } from "@/components/trackers/timeline-list";
import { TestBadge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { publicTracker } from "@/lib/dashboard/public-tracker";

// A share link is for the customer it was sent to, not for search engines.
export const metadata: Metadata = { title: "Tracking", robots: { index: false, follow: false } };

/**
 * The public tracking page: anyone with the link, no sign-in (proxy.ts lets /track/ through). It shows only the
 * public view (lib/trackers/present-public-tracker.ts): no names, streets, emails, phones, references or ids.
 */
export default async function PublicTrackingPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const tracker = await publicTracker(id);
  if (!tracker) notFound();
  const latest = tracker.events[0] ?? null;
  return (
    <>
      <div className="grid gap-1">
        <h1 className="flex flex-wrap items-center gap-2 text-2xl font-semibold tracking-tight">
          <span className="font-mono">{tracker.tracking_number}</span>
          {tracker.test_mode && <TestBadge />}
        </h1>
        <p className="text-sm text-muted-foreground">Carrier: {tracker.carrier_name}</p>
      </div>
      <StatusBanner
        status={tracker.status}
        estimatedDelivery={tracker.estimated_delivery}
        latest={latest && { description: latest.description, date: latest.date }}
      />
      <ProgressSteps status={tracker.status} eventStatuses={tracker.events.map((e) => e.status)} />
      <Card>
        <CardHeader>
          <CardTitle>Timeline</CardTitle>
        </CardHeader>
        <CardContent>
          <TimelineList events={tracker.events} empty="No scans yet: the carrier has not reported the parcel." />
        </CardContent>
      </Card>
    </>
  );
}
