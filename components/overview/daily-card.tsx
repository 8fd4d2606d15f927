import { DailyChart } from "@/components/overview/daily-chart";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { formatCalendarDay, formatCount, formatMoney } from "@/lib/client/format";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { OverviewFigures } from "@/lib/dashboard/overview-figures";

const longDay = (day: string) => formatCalendarDay(day) ?? day;

/** Labels and spend per day: the chart, a one-sentence summary it is described by, and the numbers as a table. */
export function DailyCard({ figures, timeZone }: { figures: OverviewFigures; timeZone: string }) {
  const { days, currency, totals } = figures;
  const main = totals[0];
  const busiest = days.reduce((best, d) => (d.labels > best.labels ? d : best), days[0]!);
  const money = (n: number, c = currency) => (c ? formatMoney(n, c) : "—");
  return (
    <Card>
      <CardHeader>
        <CardTitle>Labels and spend per day</CardTitle>
        <CardDescription>
          Last 30 days, days in {timeZone}. Bars: labels bought; line: spend{currency ? ` in ${currency}` : ""}.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <DailyChart
          days={days}
          currency={currency}
          label="Chart of labels bought and spend per day over the last 30 days"
          describedBy="daily-summary"
        />
        <p id="daily-summary" className="text-sm">
          {main
            ? `${formatCount(main.labels)} ${main.labels === 1 ? "label" : "labels"} for ${money(main.spend, main.currency)} in the last 30 days` +
              `${totals.length > 1 ? ` (${totals.map((t) => `${money(t.spend, t.currency)}`).join(" and ")} in all currencies, each summed apart)` : ""}; ` +
              `the busiest day was ${longDay(busiest.day)} with ${busiest.labels}.`
            : "No labels bought in the last 30 days."}
        </p>
        <details className="text-sm">
          <summary className="cursor-pointer font-medium text-primary">Show the numbers per day</summary>
          <Table className="mt-2">
            <caption className="sr-only">Labels and spend per day, last 30 days</caption>
            <TableHeader>
              <TableRow>
                <TableHead>Day</TableHead>
                <TableHead className="text-right">Labels</TableHead>
                <TableHead className="text-right">Spend{currency ? ` (${currency})` : ""}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {[...days].reverse().map((d) => (
                <TableRow key={d.day}>
                  <TableCell>{longDay(d.day)}</TableCell>
                  <TableCell className="text-right tabular-nums">{d.labels}</TableCell>
                  <TableCell className="text-right tabular-nums">{money(d.spend)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </details>
      </CardContent>
    </Card>
  );
}
