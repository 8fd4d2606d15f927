"use client";

import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatCalendarDay, formatMoney } from "@/lib/client/format";
import type { DayPoint } from "@/lib/dashboard/overview-figures";

const shortDay = (day: string) => formatCalendarDay(day, "short") ?? day;

/**
 * Labels per day (bars, left axis) and spend per day in the main currency (line, right axis). A picture for sighted
 * readers: the same numbers are in the summary and the table that `describedBy` names, which screen readers get.
 */
export function DailyChart({
  days,
  currency,
  label,
  describedBy,
}: {
  days: DayPoint[];
  currency: string | null;
  label: string;
  describedBy: string;
}) {
  const money = (n: number) => (currency ? formatMoney(n, currency) : String(n));
  return (
    <div role="img" aria-label={label} aria-describedby={describedBy} className="h-64 w-full">
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={days} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid vertical={false} stroke="var(--color-border)" />
          <XAxis
            dataKey="day"
            tickFormatter={shortDay}
            tick={{ fill: "var(--color-muted-foreground)", fontSize: 12 }}
            tickLine={false}
            axisLine={{ stroke: "var(--color-input)" }}
            minTickGap={24}
          />
          <YAxis
            yAxisId="labels"
            allowDecimals={false}
            width={36}
            tick={{ fill: "var(--color-muted-foreground)", fontSize: 12 }}
            tickLine={false}
            axisLine={false}
          />
          <YAxis
            yAxisId="spend"
            orientation="right"
            width={64}
            tickFormatter={(n: number) => money(n)}
            tick={{ fill: "var(--color-muted-foreground)", fontSize: 12 }}
            tickLine={false}
            axisLine={false}
            hide={!currency}
          />
          <Tooltip
            labelFormatter={(day) => shortDay(String(day))}
            formatter={(value, name) => (name === "Spend" ? money(Number(value)) : value)}
          />
          <Legend wrapperStyle={{ fontSize: 12, color: "var(--color-foreground)" }} />
          <Bar yAxisId="labels" dataKey="labels" name="Labels" fill="var(--color-primary)" radius={[3, 3, 0, 0]} />
          {currency && (
            <Line
              yAxisId="spend"
              dataKey="spend"
              name="Spend"
              type="monotone"
              stroke="var(--color-warning)"
              strokeWidth={2}
              dot={false}
            />
          )}
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}
