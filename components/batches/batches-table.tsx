import Link from "next/link";
import { LocalTime } from "@/components/ui/local-time";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatCount } from "@/lib/client/format";
import type { Batch } from "@/lib/schemas/batch";
import { BatchStateBadge, batchTitle } from "./batch-state-badge";

/** One row per batch, newest first; the name is the row's link, stretched over the row as in the shipments list. */
export function BatchesTable({ batches }: { batches: Batch[] }) {
  return (
    <Table>
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead>Created</TableHead>
          <TableHead>Batch</TableHead>
          <TableHead>State</TableHead>
          <TableHead className="text-right">Rows</TableHead>
          <TableHead className="text-right">Bought</TableHead>
          <TableHead className="text-right">Failed</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {batches.map((b) => (
          <TableRow key={b.id} className="relative">
            <TableCell className="whitespace-nowrap">
              <LocalTime timestamp={b.created_at} show="date" />
              <div className="text-xs text-muted-foreground">
                <LocalTime timestamp={b.created_at} show="time" />
              </div>
            </TableCell>
            <TableCell className="max-w-64">
              <Link
                href={`/batches/${b.id}`}
                className="block truncate font-medium after:absolute after:inset-0 hover:underline focus-visible:outline-2 focus-visible:outline-ring"
              >
                {batchTitle(b)}
              </Link>
              <div className="text-xs text-muted-foreground">{b.source === "csv" ? "CSV file" : "From shipments"}</div>
            </TableCell>
            <TableCell>
              <BatchStateBadge state={b.state} />
            </TableCell>
            <TableCell className="text-right tabular-nums">{formatCount(b.row_count)}</TableCell>
            <TableCell className="text-right tabular-nums">{formatCount(b.counts.purchased)}</TableCell>
            <TableCell className="text-right tabular-nums">{formatCount(b.counts.failed)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
