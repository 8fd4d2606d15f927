import "server-only";
import { and, count, eq, gte, inArray, isNotNull, lt, sql } from "drizzle-orm";
import type { DomainContext } from "@/lib/context";
import { shipments } from "@/lib/db/schema";
import type { ShipmentStatus } from "@/lib/schemas/shipment";

/**
 * The statuses of a shipment whose label is bought and not voided: what counts as spend. A voided label
 * (`cancelled`) is money the carrier gives back (or is asked to), so it is left out.
 */
const BOUGHT_STATUSES = [
  "purchased",
  "in_transit",
  "out_for_delivery",
  "delivered",
  "needs_attention",
  "delivery_failed",
  // The carrier lost it, the label was still bought (any refund is a claim, not a void).
  "lost",
] as const satisfies readonly ShipmentStatus[];

/** Labels and their total charge in one currency (a sum is never across currencies). */
export interface SpendFigure {
  currency: string;
  labels: number;
  /** The sum of the labels' total charges, as Postgres added them (numeric, exact to the cent). */
  spend: number;
}

export interface DailySpend extends SpendFigure {
  /** YYYY-MM-DD in the time zone asked for. */
  day: string;
  testMode: boolean;
}

export interface CarrierSpend extends SpendFigure {
  testMode: boolean;
  carrier: string;
  services: (SpendFigure & { service: string; serviceName: string | null })[];
}

export interface LabelSpend {
  /** One row per day, mode and currency that has labels (days without any are absent). */
  daily: DailySpend[];
  /** Per mode, carrier and currency, with the same figures per service inside. */
  carriers: CarrierSpend[];
  /** Whether the organization has ever bought a label (in either mode, at any time). */
  everBought: boolean;
}

/**
 * Labels bought and their spend in [since, until), from SQL aggregates: by day (in `timeZone`), test mode and
 * currency; and by carrier and service. A label counts on the day its shipment was created: the dashboard creates
 * the shipment moments before it buys the label, and `shipments_org_created` (org_id, created_at) serves the range.
 * There is no purchase time column to index; a shipment created one day and bought days later through the API
 * counts on the day it was created.
 */
export async function labelSpend({
  ctx,
  since,
  until,
  timeZone,
}: {
  ctx: DomainContext;
  since: Date;
  until: Date;
  timeZone: string;
}): Promise<LabelSpend> {
  const scope = and(
    eq(shipments.orgId, ctx.org.id),
    gte(shipments.createdAt, since),
    lt(shipments.createdAt, until),
    inArray(shipments.status, [...BOUGHT_STATUSES]),
  );
  const currency = sql<string>`coalesce(${shipments.selectedRate} ->> 'currency', 'XXX')`;
  const spend = sql<string>`coalesce(sum((${shipments.selectedRate} ->> 'total_charge')::numeric), 0)::text`;
  const day = sql<string>`to_char(${shipments.createdAt} at time zone ${timeZone}, 'YYYY-MM-DD')`;

  const [daily, grouped, [ever]] = await Promise.all([
    ctx.db
      .select({ day, testMode: shipments.testMode, currency, labels: count(), spend })
      .from(shipments)
      .where(scope)
      // By position: the day's expression carries a parameter, which Postgres would not match with the select's.
      .groupBy(sql`1, 2, 3`)
      .orderBy(sql`1`),
    ctx.db
      .select({
        testMode: shipments.testMode,
        carrier: sql<string>`coalesce(${shipments.carrierName}, 'unknown')`,
        service: sql<string | null>`${shipments.service}`,
        currency,
        labels: count(),
        spend,
        serviceName: sql<string | null>`max(${shipments.selectedRate} -> 'meta' ->> 'service_name')`,
        // 1 on the per-carrier rows of the grouping sets, 0 on the per-service ones.
        perCarrier: sql<number>`grouping(${shipments.service})`,
      })
      .from(shipments)
      .where(scope)
      .groupBy(sql`grouping sets ((1, 2, 4), (1, 2, 3, 4))`),
    // A label ever bought leaves its tracking number, voided or not: one probe of shipments_org_tracking_number.
    ctx.db
      .select({ id: shipments.id })
      .from(shipments)
      .where(and(eq(shipments.orgId, ctx.org.id), isNotNull(shipments.trackingNumber)))
      .limit(1),
  ]);

  const carriers: CarrierSpend[] = [];
  const key = (r: { testMode: boolean; carrier: string; currency: string }) =>
    `${r.testMode}\u0000${r.carrier}\u0000${r.currency}`;
  const byKey = new Map<string, CarrierSpend>();
  for (const r of grouped) {
    if (Number(r.perCarrier) !== 1) continue;
    const row: CarrierSpend = {
      testMode: r.testMode,
      carrier: r.carrier,
      currency: r.currency,
      labels: r.labels,
      spend: Number(r.spend),
      services: [],
    };
    carriers.push(row);
    byKey.set(key(r), row);
  }
  for (const r of grouped) {
    if (Number(r.perCarrier) === 1) continue;
    byKey.get(key(r))?.services.push({
      service: r.service ?? "unknown",
      serviceName: r.serviceName,
      currency: r.currency,
      labels: r.labels,
      spend: Number(r.spend),
    });
  }
  const bySpend = (a: SpendFigure, b: SpendFigure) => b.spend - a.spend || b.labels - a.labels;
  carriers.sort(bySpend);
  for (const c of carriers) c.services.sort(bySpend);
  return {
    daily: daily.map((r) => ({ ...r, spend: Number(r.spend) })),
    carriers,
    everBought: ever !== undefined,
  };
}
