import Link from "next/link";
import { StatusBadge } from "@/components/ui/status-badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatMoney } from "@/lib/client/format";
import type { BatchRowOut } from "@/lib/schemas/batch";
import { DecideRow } from "./batch-actions";
import { ROW_STATE_DISPLAY } from "./batch-state-badge";

const dash = <span className="text-muted-foreground">—</span>;

/**
 * The batch's rows in CSV order, each with its state, the rate the dry run picked, and what is wrong with it: the
 * CSV line, the column and the reason (and the carrier's own words when a carrier refused), inline in its row.
 */
export function BatchRowsTable({
  rows,
  source,
  decide,
}: {
  rows: BatchRowOut[];
  source: "csv" | "shipments";
  /** The batch whose waiting rows take a decision now (before its purchase or during it); null: none. */
  decide: string | null;
}) {
  return (
    <Table scrollLabel="Batch rows">
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead className="text-right">{source === "csv" ? "CSV line" : "Row"}</TableHead>
          <TableHead>Order</TableHead>
          <TableHead>State</TableHead>
          <TableHead>Carrier and service</TableHead>
          <TableHead className="text-right">Price</TableHead>
          <TableHead>Problem</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((r) => (
          <TableRow key={r.line} data-line={r.line} className={r.error ? "bg-destructive-muted/40" : undefined}>
            <TableCell className="text-right tabular-nums">{r.line}</TableCell>
            <TableCell className="max-w-40 truncate">
              {r.shipment_id && r.state === "purchased" ? (
                <Link href={`/shipments/${r.shipment_id}`} className="text-primary underline">
                  {r.reference ?? (
                    <>
                      View shipment<span className="sr-only"> of row {r.line}</span>
                    </>
                  )}
                </Link>
              ) : (
                (r.reference ?? dash)
              )}
            </TableCell>
            <TableCell>
              <div className="flex flex-wrap items-center gap-1.5">
                <StatusBadge status={r.state} display={ROW_STATE_DISPLAY[r.state]} />
                {r.state === "needs_decision" && (
                  <span className="text-xs text-muted-foreground">above the price cap</span>
                )}
              </div>
              {r.state === "needs_decision" && decide && (
                <div className="mt-1.5">
                  <DecideRow batchId={decide} line={r.line} />
                </div>
              )}
            </TableCell>
            <TableCell className="whitespace-nowrap">
              {r.rate ? (
                <>
                  <div>{r.rate.carrier_id}</div>
                  <div className="text-xs text-muted-foreground">{r.rate.service}</div>
                </>
              ) : (
                dash
              )}
            </TableCell>
            <TableCell className="text-right whitespace-nowrap tabular-nums">
              {r.rate ? formatMoney(r.rate.amount, r.rate.currency) : dash}
            </TableCell>
            <TableCell className="min-w-56 text-sm">
              {r.error ? (
                <div className="grid gap-0.5">
                  <p className="font-medium text-destructive">
                    {source === "csv" ? `Line ${r.line}` : `Row ${r.line}`}
                    {r.error.column ? `, column “${r.error.column}”` : ""}: {r.error.message}
                  </p>
                  {r.error.carrier_text && (
                    <p className="text-xs text-muted-foreground">Carrier: {r.error.carrier_text}</p>
                  )}
                </div>
              ) : (
                dash
              )}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
