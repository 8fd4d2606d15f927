import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatCount, formatMoney } from "@/lib/client/format";
import type { Batch } from "@/lib/schemas/batch";

/** The dry run's result: rows and price per carrier and service, then the total per currency. */
export function BatchSummary({ summary }: { summary: NonNullable<Batch["summary"]> }) {
  if (summary.services.length === 0) return <p className="text-sm text-muted-foreground">No row could be priced.</p>;
  return (
    <Table scrollLabel="Price per carrier and service">
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead>Carrier</TableHead>
          <TableHead>Service</TableHead>
          <TableHead className="text-right">Labels</TableHead>
          <TableHead className="text-right">Price</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {summary.services.map((s) => (
          <TableRow key={`${s.carrier_id}/${s.service}/${s.currency}`}>
            <TableCell>{s.carrier_id}</TableCell>
            <TableCell>{s.service}</TableCell>
            <TableCell className="text-right tabular-nums">{formatCount(s.count)}</TableCell>
            <TableCell className="text-right tabular-nums">{formatMoney(s.amount, s.currency)}</TableCell>
          </TableRow>
        ))}
        {summary.totals.map((t) => (
          <TableRow key={t.currency} className="font-semibold hover:bg-transparent">
            <TableCell colSpan={3}>Total ({t.currency})</TableCell>
            <TableCell className="text-right tabular-nums">{formatMoney(t.amount, t.currency)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
