import Link from "next/link";
import { AlertTriangle } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { LocalTime } from "@/components/ui/local-time";
import type { TrackerOverview } from "@/lib/trackers/tracker-overview";

const STATUS_WORDS: Record<string, string> = {
  on_hold: "On hold",
  delivery_delayed: "Delayed",
  ready_for_pickup: "Ready for pickup",
  delivery_failed: "Delivery failed",
  return_to_sender: "Returning to sender",
  lost: "Lost",
};

/** Delivered by the estimated date, with the count it rests on. */
export function OnTimeCard({ onTime }: { onTime: TrackerOverview["onTime"] }) {
  const rate = onTime.basis > 0 ? Math.round((onTime.onTime / onTime.basis) * 100) : null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>On-time delivery</CardTitle>
        <CardDescription>
          Parcels tracked in the last 30 days, delivered on or before their estimated date.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-1">
        <p className="text-3xl font-semibold tabular-nums">{rate === null ? "—" : `${rate}%`}</p>
        <p className="text-sm">
          {onTime.basis > 0
            ? `${onTime.onTime} of ${onTime.basis} delivered parcels with an estimate arrived on time.`
            : "No delivered parcel with an estimated date yet."}
          {onTime.withoutEstimate > 0 && ` ${onTime.withoutEstimate} delivered without an estimate are not counted.`}
        </p>
      </CardContent>
    </Card>
  );
}

/** Parcels someone must look at, newest first, each a link to its shipment (or its tracker). */
export function ExceptionsCard({ exceptions }: { exceptions: TrackerOverview["exceptions"] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Open exceptions</CardTitle>
        <CardDescription>
          Held, delayed, waiting for pickup, failed, returning or lost: {exceptions.count}{" "}
          {exceptions.count === 1 ? "parcel" : "parcels"}.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {exceptions.count === 0 ? (
          <p className="text-sm text-muted-foreground">Nothing needs attention.</p>
        ) : (
          <ul className="grid gap-2">
            {exceptions.latest.map((e) => (
              <li key={e.id} className="flex flex-wrap items-center gap-2 text-sm">
                <Badge tone="warning">
                  <AlertTriangle aria-hidden />
                  {STATUS_WORDS[e.status] ?? e.status}
                </Badge>
                <Link
                  className="font-mono text-primary underline underline-offset-2"
                  href={e.shipmentId ? `/shipments/${e.shipmentId}` : `/trackers/${e.id}`}
                >
                  {e.trackingNumber}
                </Link>
                <span className="text-muted-foreground">{e.carrierName}</span>
                {e.lastEventAt && (
                  <span className="text-muted-foreground">
                    <LocalTime timestamp={e.lastEventAt.toISOString()} />
                  </span>
                )}
              </li>
            ))}
            {exceptions.count > exceptions.latest.length && (
              <li className="text-sm">
                <Link className="text-primary underline" href="/shipments?status=attention">
                  All shipments needing attention
                </Link>
              </li>
            )}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
