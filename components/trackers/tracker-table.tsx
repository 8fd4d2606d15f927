import Link from "next/link";
import { TestBadge } from "@/components/ui/badge";
import { LocalTime } from "@/components/ui/local-time";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { TrackerStatusBadge } from "@/components/trackers/tracker-status-badge";
import { dayText } from "@/lib/client/format";
import type { TrackerShipment } from "@/lib/dashboard/tracker-shipments";
import type { StoredTracker } from "@/lib/schemas/tracker";

const dash = <span className="text-muted-foreground">—</span>;

/**
 * One row per tracker; the tracking number is the row's link, stretched over the row. Event dates and times are the
 * carrier's, local to the scan, shown as given (never shifted to the viewer's zone); the refresh time is ours.
 */
export function TrackerTable({
  trackers,
  shipments,
}: {
  trackers: StoredTracker[];
  /** The shipment behind each tracker that has one, by shipment id (lib/dashboard/tracker-shipments.ts). */
  shipments: Map<string, TrackerShipment>;
}) {
  return (
    <Table>
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead>Carrier</TableHead>
          <TableHead>Tracking number</TableHead>
          <TableHead>Recipient</TableHead>
          <TableHead>Reference</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Last event (local time)</TableHead>
          <TableHead>Delivery</TableHead>
          <TableHead>Last refresh</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {trackers.map((t) => (
          <TrackerRow key={t.id} tracker={t} shipment={t.shipment_id ? shipments.get(t.shipment_id) : undefined} />
        ))}
      </TableBody>
    </Table>
  );
}

function TrackerRow({ tracker: t, shipment }: { tracker: StoredTracker; shipment: TrackerShipment | undefined }) {
  const last = t.events[0];
  const delivery = t.delivered
    ? last && `Delivered ${dayText(last.date)}`
    : t.estimated_delivery && t.status !== "cancelled"
      ? `Expected ${dayText(t.estimated_delivery.slice(0, 10))}`
      : null;
  return (
    <TableRow className="relative">
      <TableCell className="whitespace-nowrap">
        <div>{t.carrier_name}</div>
        {t.carrier_id !== t.carrier_name && <div className="text-xs text-muted-foreground">{t.carrier_id}</div>}
      </TableCell>
      <TableCell className="font-mono text-xs whitespace-nowrap">
        <Link
          href={`/trackers/${t.id}`}
          className="font-medium after:absolute after:inset-0 hover:underline focus-visible:outline-2 focus-visible:outline-ring"
        >
          {t.tracking_number}
        </Link>
      </TableCell>
      <TableCell className="whitespace-nowrap">
        {shipment ? (
          <>
            <div>{shipment.recipient ?? dash}</div>
            {shipment.place && <div className="text-xs text-muted-foreground">{shipment.place}</div>}
          </>
        ) : (
          <span className="text-muted-foreground">Tracked by number</span>
        )}
      </TableCell>
      <TableCell className="max-w-40 truncate">{shipment?.reference ?? dash}</TableCell>
      <TableCell>
        <div className="flex items-center gap-1.5">
          <TrackerStatusBadge status={t.status} />
          {t.test_mode && <TestBadge />}
        </div>
      </TableCell>
      <TableCell className="max-w-72">
        {last ? (
          <span className="grid">
            <span className="truncate">{last.description}</span>
            <span className="text-xs text-muted-foreground">
              {[last.location, `${dayText(last.date)}${last.time ? ` ${last.time}` : ""}`].filter(Boolean).join(" · ")}
            </span>
          </span>
        ) : (
          <span className="text-muted-foreground">No scans yet</span>
        )}
      </TableCell>
      <TableCell className="whitespace-nowrap">{delivery ?? dash}</TableCell>
      <TableCell className="whitespace-nowrap">
        {t.refreshed_at ? (
          <LocalTime timestamp={t.refreshed_at} />
        ) : (
          <span className="text-muted-foreground">Not yet</span>
        )}
      </TableCell>
    </TableRow>
  );
}
