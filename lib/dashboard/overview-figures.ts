import type { DailySpend, SpendFigure } from "@/lib/shipments/label-spend";

/** The overview's window: today and the 29 days before it, in the clerk's time zone. */
export const OVERVIEW_DAYS = 30;

/** Today's date (YYYY-MM-DD) in `timeZone`. */
export function dayIn(timeZone: string, at: Date): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(at);
}

/** `count` consecutive days ending with `last`, oldest first. */
export function daysEndingOn(last: string, count: number): string[] {
  const [y, m, d] = last.split("-").map(Number) as [number, number, number];
  return Array.from({ length: count }, (_, i) =>
    new Date(Date.UTC(y, m - 1, d - (count - 1 - i))).toISOString().slice(0, 10),
  );
}

export interface DayPoint {
  day: string;
  /** Labels bought that day, every currency. */
  labels: number;
  /** Spend that day in the main currency. */
  spend: number;
}

export interface OverviewFigures {
  /** The window's days, oldest first, zero where nothing was bought. */
  days: DayPoint[];
  /** The currency most labels were bought in (null without labels); the chart and the week show it. */
  currency: string | null;
  /** Totals over the window per currency, the main one first. */
  totals: SpendFigure[];
  /** The last 7 days (today included) against the 7 before: labels in every currency, spend in the main one. */
  week: { labels: number; spend: number; previousLabels: number; previousSpend: number };
}

// Money adds up in cents, never in floating-point units.
const cents = (amount: number) => Math.round(amount * 100);

/** One mode's figures from the daily aggregate rows (a few dozen rows: the sums themselves came from SQL). */
export function overviewFigures(daily: DailySpend[], testMode: boolean, days: string[]): OverviewFigures {
  const rows = daily.filter((r) => r.testMode === testMode && days.includes(r.day));
  const perCurrency = new Map<string, { labels: number; cents: number }>();
  for (const r of rows) {
    const t = perCurrency.get(r.currency) ?? { labels: 0, cents: 0 };
    perCurrency.set(r.currency, { labels: t.labels + r.labels, cents: t.cents + cents(r.spend) });
  }
  const totals = [...perCurrency]
    .map(([currency, t]) => ({ currency, labels: t.labels, spend: t.cents / 100 }))
    .sort((a, b) => b.labels - a.labels || b.spend - a.spend || a.currency.localeCompare(b.currency));
  const currency = totals[0]?.currency ?? null;

  const points = days.map((day) => {
    const ofDay = rows.filter((r) => r.day === day);
    const main = ofDay.filter((r) => r.currency === currency).reduce((sum, r) => sum + cents(r.spend), 0);
    return { day, labels: ofDay.reduce((sum, r) => sum + r.labels, 0), spend: main / 100 };
  });
  const sum = (list: DayPoint[]) => ({
    labels: list.reduce((n, p) => n + p.labels, 0),
    spend: list.reduce((n, p) => n + cents(p.spend), 0) / 100,
  });
  const thisWeek = sum(points.slice(-7));
  const lastWeek = sum(points.slice(-14, -7));
  return {
    days: points,
    currency,
    totals,
    week: {
      labels: thisWeek.labels,
      spend: thisWeek.spend,
      previousLabels: lastWeek.labels,
      previousSpend: lastWeek.spend,
    },
  };
}

/** Labels in the window per mode, for the live/test switch. */
export function labelsPerMode(daily: DailySpend[]): { live: number; test: number } {
  let live = 0;
  let test = 0;
  for (const r of daily) {
    if (r.testMode) test += r.labels;
    else live += r.labels;
  }
  return { live, test };
}
