import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { formatMoney } from "@/lib/client/format";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { CarrierSpend } from "@/lib/shipments/label-spend";

/** Spend per carrier, and per service under it, as a table whose bars show each row's share of its currency. */
export function CarrierSpendCard({ carriers }: { carriers: CarrierSpend[] }) {
  const currencyTotal = new Map<string, number>();
  for (const c of carriers) currencyTotal.set(c.currency, (currencyTotal.get(c.currency) ?? 0) + c.spend);
  const share = (spend: number, currency: string) => {
    const total = currencyTotal.get(currency) ?? 0;
    return total > 0 ? Math.round((spend / total) * 100) : 0;
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Spend by carrier and service</CardTitle>
        <CardDescription>Last 30 days; a share is of the spend in the same currency.</CardDescription>
      </CardHeader>
      <CardContent>
        {carriers.length === 0 ? (
          <p className="text-sm text-muted-foreground">No labels in the last 30 days.</p>
        ) : (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Carrier / service</TableHead>
                <TableHead className="text-right">Labels</TableHead>
                <TableHead className="text-right">Spend</TableHead>
                <TableHead className="w-1/3">Share</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {carriers.flatMap((c) => [
                <TableRow key={`${c.carrier}-${c.currency}`} className="font-medium">
                  <TableHead scope="row" className="text-sm text-foreground">
                    {c.carrier}
                  </TableHead>
                  <TableCell className="text-right tabular-nums">{c.labels}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatMoney(c.spend, c.currency)}</TableCell>
                  <TableCell>
                    <ShareBar percent={share(c.spend, c.currency)} />
                  </TableCell>
                </TableRow>,
                ...c.services.map((s) => (
                  <TableRow key={`${c.carrier}-${c.currency}-${s.service}`}>
                    <TableCell className="pl-7 text-muted-foreground">{s.serviceName ?? s.service}</TableCell>
                    <TableCell className="text-right tabular-nums">{s.labels}</TableCell>
                    <TableCell className="text-right tabular-nums">{formatMoney(s.spend, s.currency)}</TableCell>
                    <TableCell>
                      <ShareBar percent={share(s.spend, s.currency)} />
                    </TableCell>
                  </TableRow>
                )),
              ])}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}

function ShareBar({ percent }: { percent: number }) {
  return (
    <div className="flex items-center gap-2">
      <div className="h-2 flex-1 rounded-full bg-muted" aria-hidden>
        <div className="h-2 rounded-full bg-primary" style={{ width: `${percent}%` }} />
      </div>
      <span className="w-10 text-right text-xs tabular-nums">{percent}%</span>
    </div>
  );
}
