import type { Metadata } from "next";
import type { SearchParams } from "nuqs/server";
import { CarrierSpendCard } from "@/components/overview/carrier-spend-card";
import { DailyCard } from "@/components/overview/daily-card";
import { OverviewEmpty } from "@/components/overview/overview-empty";
import { loadOverviewParams, overviewUrl } from "@/components/overview/search-params";
import { StatCard } from "@/components/overview/stat-card";
import { TimeZoneLink } from "@/components/overview/time-zone-link";
import { ExceptionsCard, OnTimeCard } from "@/components/overview/tracking-cards";
import { LinkTabs } from "@/components/ui/link-tabs";
import { formatCount, formatMoney } from "@/lib/client/format";
import { OVERVIEW_DAYS, dayIn, daysEndingOn, labelsPerMode, overviewFigures } from "@/lib/dashboard/overview-figures";
import { requireSession } from "@/lib/dashboard/session";
import { startOfDay } from "@/lib/dashboard/zoned-day";
import { labelSpend } from "@/lib/shipments/label-spend";
import { trackerOverview } from "@/lib/trackers/tracker-overview";
import { PageHeader } from "@/components/shell/page-header";
import { CreateLabelLink } from "@/components/shipments/create-label-link";

export const metadata: Metadata = { title: "Overview" };

/** "+12%" against the week before; nothing when there is nothing to compare with. */
function change(now: number, before: number): string {
  if (before === 0) return "";
  const pct = Math.round(((now - before) / before) * 100);
  return ` (${pct > 0 ? "+" : ""}${pct}%)`;
}

export default async function OverviewPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { ctx } = await requireSession();
  const params = await loadOverviewParams(searchParams);
  const timeZone = params.tz ?? "UTC";
  const days = daysEndingOn(dayIn(timeZone, new Date()), OVERVIEW_DAYS);
  const since = startOfDay(days[0]!, timeZone);
  const until = startOfDay(days.at(-1)!, timeZone, 1);

  const spend = await labelSpend({ ctx, since, until, timeZone });
  const perMode = labelsPerMode(spend.daily);
  const mode = params.mode ?? (perMode.live > 0 || perMode.test === 0 ? "live" : "test");
  const testMode = mode === "test";
  const tracking = await trackerOverview({ ctx, since, until, testMode });
  const header = <PageHeader title="Overview" action={<CreateLabelLink />} />;
  if (!spend.everBought && tracking.inTransit === 0 && tracking.exceptions.count === 0) {
    return (
      <div className="grid grid-cols-1 gap-5">
        {header}
        <OverviewEmpty />
      </div>
    );
  }

  const figures = overviewFigures(spend.daily, testMode, days);
  const { week, currency } = figures;
  const money = (n: number) => (currency ? formatMoney(n, currency) : "—");
  const others = figures.totals.slice(1);
  return (
    <div className="grid grid-cols-1 gap-5">
      {header}
      <LinkTabs
        label="Mode"
        items={(["live", "test"] as const).map((m) => ({
          href: overviewUrl("/", { mode: m, tz: params.tz }),
          label: m === "live" ? "Live labels" : "Test labels",
          count: perMode[m],
          current: m === mode,
        }))}
      />
      <p className="text-sm text-muted-foreground">
        {testMode ? "Test labels are free and are not real spend. " : ""}
        Last {OVERVIEW_DAYS} days, days in {timeZone}. <TimeZoneLink mode={params.mode} tz={timeZone} />
      </p>
      <section aria-label="This week" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard
          label="Labels, last 7 days"
          value={formatCount(week.labels)}
          detail={`${formatCount(week.previousLabels)} the 7 days before${change(week.labels, week.previousLabels)}`}
        />
        <StatCard
          label={`Spend, last 7 days${currency ? ` (${currency})` : ""}`}
          value={money(week.spend)}
          detail={
            <>
              {money(week.previousSpend)} the 7 days before{change(week.spend, week.previousSpend)}
              {others.length > 0 && (
                <>
                  <br />
                  Also in 30 days: {others.map((o) => formatMoney(o.spend, o.currency)).join(", ")}
                </>
              )}
            </>
          }
        />
        <StatCard label="In transit now" value={formatCount(tracking.inTransit)} href="/trackers" />
        <StatCard
          label="Open exceptions"
          value={formatCount(tracking.exceptions.count)}
          href="/shipments?status=attention"
        />
      </section>
      <DailyCard figures={figures} timeZone={timeZone} />
      <div className="grid gap-5 lg:grid-cols-2">
        <CarrierSpendCard carriers={spend.carriers.filter((c) => c.testMode === testMode)} />
        <div className="grid content-start gap-5">
          <ExceptionsCard exceptions={tracking.exceptions} />
          <OnTimeCard onTime={tracking.onTime} />
        </div>
      </div>
    </div>
  );
}
