import Link from "next/link";
import { Radar } from "lucide-react";
import { Badge, TestBadge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { StoredTracker } from "@/lib/schemas/tracker";

const stamp = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" });
const words = (status: string) => status.replaceAll("_", " ");

/**
 * Trackers with their latest event. Event dates and times are the carrier's, local to the scan, shown as given
 * (never shifted to the viewer's zone); the refresh time is ours.
 */
export function TrackerTable({ trackers }: { trackers: StoredTracker[] }) {
  if (trackers.length === 0) {
    return (
      <EmptyState
        icon={Radar}
        title="No parcels followed yet"
        description="Every label bought here is tracked automatically; API clients can add any tracking number."
      />
    );
  }
  return (
    <div className="overflow-x-auto rounded-md border">
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>Tracking number</TableHead>
            <TableHead>Carrier</TableHead>
            <TableHead>Status</TableHead>
            <TableHead>Last event (local time)</TableHead>
            <TableHead>Estimated delivery</TableHead>
            <TableHead>Last checked</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {trackers.map((t) => {
            const last = t.events[0];
            return (
              <TableRow key={t.id}>
                <TableCell className="font-mono text-xs">
                  {t.shipment_id ? (
                    <Link className="text-primary underline underline-offset-2" href={`/shipments/${t.shipment_id}`}>
                      {t.tracking_number}
                    </Link>
                  ) : (
                    t.tracking_number
                  )}{" "}
                  {t.test_mode && <TestBadge />}
                </TableCell>
                <TableCell>{t.carrier_name}</TableCell>
                <TableCell>
                  <Badge tone={t.delivered ? "success" : t.status === "unknown" ? "neutral" : "info"}>
                    {words(t.status)}
                  </Badge>
                </TableCell>
                <TableCell>
                  {last ? (
                    <span className="grid">
                      <span>{last.description}</span>
                      <span className="text-xs text-muted-foreground">
                        {[last.location, `${last.date}${last.time ? ` ${last.time}` : ""}`].filter(Boolean).join(" · ")}
                      </span>
                    </span>
                  ) : (
                    <span className="text-muted-foreground">No scans yet</span>
                  )}
                </TableCell>
                <TableCell>{t.estimated_delivery ?? "—"}</TableCell>
                <TableCell>{t.refreshed_at ? stamp.format(new Date(t.refreshed_at)) : "Not yet"}</TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </div>
  );
}
