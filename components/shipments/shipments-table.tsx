import Link from "next/link";
import { TestBadge } from "@/components/ui/badge";
import { LocalTime } from "@/components/ui/local-time";
import { formatMoney } from "@/lib/client/format";
import { ShipmentStatusBadge } from "@/components/shipments/shipment-status-badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { Shipment } from "@/lib/schemas/shipment";

const dash = <span className="text-muted-foreground">—</span>;

/**
 * One row per shipment. The recipient's name is the row's link, stretched over the whole row so a click anywhere
 * opens it while the keyboard meets one link per row; the tracking number sits above that link, to be selected and
 * copied.
 */
export function ShipmentsTable({ shipments }: { shipments: Shipment[] }) {
  return (
    <Table>
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead>Created</TableHead>
          <TableHead>Recipient</TableHead>
          <TableHead>Reference</TableHead>
          <TableHead>Carrier and service</TableHead>
          <TableHead>Tracking number</TableHead>
          <TableHead>Status</TableHead>
          <TableHead className="text-right">Total</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {shipments.map((s) => (
          <ShipmentRow key={s.id} shipment={s} />
        ))}
      </TableBody>
    </Table>
  );
}

function ShipmentRow({ shipment: s }: { shipment: Shipment }) {
  const r = s.recipient;
  const place = [r.city, r.state_code, r.country_code].filter(Boolean).join(", ");
  const rate = s.selected_rate;
  return (
    <TableRow className="relative">
      <TableCell className="whitespace-nowrap">
        <LocalTime timestamp={s.created_at} show="date" />
        <div className="text-xs text-muted-foreground">
          <LocalTime timestamp={s.created_at} show="time" />
        </div>
      </TableCell>
      <TableCell className="whitespace-nowrap">
        <Link
          href={`/shipments/${s.id}`}
          className="font-medium after:absolute after:inset-0 hover:underline focus-visible:outline-2 focus-visible:outline-ring"
        >
          {r.person_name || r.company_name || "No name"}
        </Link>
        {place && <div className="text-xs text-muted-foreground">{place}</div>}
      </TableCell>
      <TableCell className="max-w-40 truncate">{s.reference ?? dash}</TableCell>
      <TableCell className="whitespace-nowrap">
        {s.carrier_name ? (
          <>
            <div>{s.carrier_id ?? s.carrier_name}</div>
            <div className="text-xs text-muted-foreground">{rate?.meta.service_name ?? s.service}</div>
          </>
        ) : (
          dash
        )}
      </TableCell>
      <TableCell className="relative z-10 font-mono text-xs whitespace-nowrap select-all">
        {s.tracking_number ?? dash}
      </TableCell>
      <TableCell>
        <div className="flex items-center gap-1.5">
          <ShipmentStatusBadge status={s.status} />
          {s.test_mode && <TestBadge />}
        </div>
      </TableCell>
      <TableCell className="text-right whitespace-nowrap tabular-nums">
        {rate ? formatMoney(rate.total_charge, rate.currency) : dash}
      </TableCell>
    </TableRow>
  );
}
