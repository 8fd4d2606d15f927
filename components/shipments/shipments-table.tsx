"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Layers, Printer } from "lucide-react";
import { useApiMutation } from "@/components/forms/use-api-mutation";
import { TestBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { apiFetch } from "@/lib/client/api";
import { formatCount, formatMoney, recipientName } from "@/lib/client/format";
import { LocalTime } from "@/components/ui/local-time";
import { ShipmentStatusBadge } from "@/components/shipments/shipment-status-badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { Shipment } from "@/lib/schemas/shipment";

const dash = <span className="text-muted-foreground">—</span>;

/** A row's name, as its checkbox and link say it. */
const nameOf = (s: Shipment) => recipientName(s.recipient);

/**
 * One row per shipment. The recipient's name is the row's link, stretched over the whole row so a click anywhere
 * opens it while the keyboard meets one link per row; the tracking number and the row's checkbox sit above that link.
 * Rows selected on the page become a batch: "Buy labels" buys the selected drafts at once (each at its own cheapest
 * rate, checked and priced first) on the batch's page; "Print labels" gathers the selected labels already bought into a
 * print run (one PDF or ZPL file per 100, in the order selected), buying nothing.
 */
export function ShipmentsTable({ shipments }: { shipments: Shipment[] }) {
  const router = useRouter();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const chosen = shipments.filter((s) => s.id !== null && selected.has(s.id));
  const drafts = chosen.filter((s) => s.status === "created");
  // Printed in the order they were selected (the set keeps it): a print run's labels come in the order given.
  const byId = new Map(chosen.map((s) => [s.id, s]));
  const printable = [...selected]
    .map((id) => byId.get(id))
    .filter((s): s is Shipment => s !== undefined && s.status !== "created" && s.status !== "cancelled");
  const all = shipments.length > 0 && chosen.length === shipments.length;
  const toggle = (id: string, on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const buy = useApiMutation<string[], { id: string }>({
    request: (ids) => apiFetch<{ id: string }>("/v1/batches", { method: "POST", body: { shipment_ids: ids } }),
    refresh: false,
    onSuccess: (batch) => router.push(`/batches/${batch.id}`),
  });
  // A print run: labels already bought, merged into the batch's files; nothing is bought on this path.
  const print = useApiMutation<string[], { id: string }>({
    request: (ids) =>
      apiFetch<{ id: string }>("/v1/batches", { method: "POST", body: { kind: "print", shipment_ids: ids } }),
    refresh: false,
    onSuccess: (batch) => router.push(`/batches/${batch.id}`),
  });
  return (
    <>
      {chosen.length > 0 && (
        <div className="flex flex-wrap items-center gap-3 border-b bg-muted/50 px-3 py-2 text-sm">
          <span aria-live="polite">{formatCount(chosen.length)} selected</span>
          <Button
            size="sm"
            disabled={drafts.length === 0}
            loading={buy.isPending}
            onClick={() => buy.mutate(drafts.map((s) => s.id!))}
          >
            <Layers aria-hidden />
            Buy {drafts.length === 1 ? "label" : "labels"}
            {drafts.length > 0 && drafts.length < chosen.length ? ` (${formatCount(drafts.length)})` : ""}
          </Button>
          <Button
            size="sm"
            variant="outline"
            disabled={printable.length === 0}
            loading={print.isPending}
            onClick={() => print.mutate(printable.map((s) => s.id!))}
          >
            <Printer aria-hidden />
            Print {printable.length === 1 ? "label" : "labels"}
            {printable.length > 0 && printable.length < chosen.length ? ` (${formatCount(printable.length)})` : ""}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setSelected(new Set())}>
            Clear selection
          </Button>
          {(drafts.length < chosen.length || printable.length < chosen.length) && (
            <span className="text-muted-foreground">
              Drafts are bought, labels already bought are printed
              {chosen.length - drafts.length - printable.length > 0
                ? `; ${formatCount(chosen.length - drafts.length - printable.length)} selected ${
                    chosen.length - drafts.length - printable.length === 1 ? "is" : "are"
                  } cancelled`
                : ""}
              .
            </span>
          )}
        </div>
      )}
      <Table>
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            <TableHead className="w-8">
              <Checkbox
                aria-label="Select all shipments on this page"
                checked={all ? true : chosen.length > 0 ? "indeterminate" : false}
                onCheckedChange={(c) =>
                  setSelected(c === true ? new Set(shipments.flatMap((s) => (s.id ? [s.id] : []))) : new Set())
                }
              />
            </TableHead>
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
            <ShipmentRow
              key={s.id}
              shipment={s}
              selected={s.id !== null && selected.has(s.id)}
              onSelect={(on) => s.id && toggle(s.id, on)}
            />
          ))}
        </TableBody>
      </Table>
    </>
  );
}

function ShipmentRow({
  shipment: s,
  selected,
  onSelect,
}: {
  shipment: Shipment;
  selected: boolean;
  onSelect: (on: boolean) => void;
}) {
  const r = s.recipient;
  const place = [r.city, r.state_code, r.country_code].filter(Boolean).join(", ");
  const rate = s.selected_rate;
  return (
    <TableRow className="relative" data-state={selected ? "selected" : undefined}>
      <TableCell className="relative z-10 w-8">
        <Checkbox aria-label={`Select ${nameOf(s)}`} checked={selected} onCheckedChange={(c) => onSelect(c === true)} />
      </TableCell>
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
          {nameOf(s)}
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
