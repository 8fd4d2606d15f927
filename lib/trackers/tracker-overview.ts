import "server-only";
import { and, count, desc, eq, gte, inArray, isNull, lt, sql } from "drizzle-orm";
import type { DomainContext } from "@/lib/context";
import { trackers, trackingEvents } from "@/lib/db/schema";
import type { TrackerStatus } from "@/lib/carriers/types";

/** Moving parcels: scanned by the carrier and not yet delivered. */
const MOVING_STATUSES = ["picked_up", "in_transit", "out_for_delivery"] as const satisfies TrackerStatus[];

/**
 * Parcels someone has to look at: the statuses that turn a shipment `needs_attention`, `delivery_failed` or `lost`
 * (tracking-rules.ts, shipmentStatusFor).
 */
const EXCEPTION_STATUSES = [
  "on_hold",
  "delivery_delayed",
  "ready_for_pickup",
  "delivery_failed",
  "return_to_sender",
  "lost",
] as const satisfies TrackerStatus[];

interface OpenException {
  id: string;
  carrierName: string;
  trackingNumber: string;
  status: TrackerStatus;
  shipmentId: string | null;
  lastEventAt: Date | null;
}

export interface TrackerOverview {
  /** Trackers in a moving status now. */
  inTransit: number;
  /**
   * Of the trackers created in [since, until) that are delivered and had an estimated delivery date: how many were
   * delivered on or before that date (`onTime`) out of how many (`basis`). Dates are the carrier's own local dates:
   * the delivered scan's date against the estimate as last given. `withoutEstimate`: delivered ones left out.
   */
  onTime: { onTime: number; basis: number; withoutEstimate: number };
  /** Trackers in an exception status (not retired), and the most recent ones. */
  exceptions: { count: number; latest: OpenException[] };
}

/**
 * The overview's tracking figures for one mode (test or live), each one aggregate query on an (org_id, status, …)
 * index: `trackers_org_status_created` serves the moving and exception counts and the delivered cohort; a delivered
 * tracker's delivery date is one probe of `tracking_events_tracker_time`.
 */
export async function trackerOverview({
  ctx,
  since,
  until,
  testMode,
  latest = 10,
}: {
  ctx: DomainContext;
  since: Date;
  until: Date;
  testMode: boolean;
  latest?: number;
}): Promise<TrackerOverview> {
  const mine = and(eq(trackers.orgId, ctx.org.id), eq(trackers.testMode, testMode));
  const exceptional = and(mine, inArray(trackers.status, [...EXCEPTION_STATUSES]), isNull(trackers.retiredAt));
  const deliveredOn = sql<string>`coalesce(
    (select min(${trackingEvents.date}) from ${trackingEvents}
      where ${trackingEvents.trackerId} = ${trackers.id} and ${trackingEvents.status} = 'delivered'),
    to_char(${trackers.lastEventAt} at time zone 'UTC', 'YYYY-MM-DD'))`;
  const estimate = sql<string>`left(${trackers.estimatedDelivery}, 10)`;

  const [[moving], [cohort], [open], rows] = await Promise.all([
    ctx.db
      .select({ n: count() })
      .from(trackers)
      .where(and(mine, inArray(trackers.status, [...MOVING_STATUSES]))),
    ctx.db
      .select({
        basis: sql<number>`(count(*) filter (where ${trackers.estimatedDelivery} is not null))::int`,
        onTime: sql<number>`(count(*) filter (where ${trackers.estimatedDelivery} is not null and ${deliveredOn} <= ${estimate}))::int`,
        withoutEstimate: sql<number>`(count(*) filter (where ${trackers.estimatedDelivery} is null))::int`,
      })
      .from(trackers)
      .where(
        and(mine, eq(trackers.status, "delivered"), gte(trackers.createdAt, since), lt(trackers.createdAt, until)),
      ),
    ctx.db.select({ n: count() }).from(trackers).where(exceptional),
    ctx.db
      .select({
        id: trackers.id,
        carrierName: trackers.carrierName,
        trackingNumber: trackers.trackingNumber,
        status: trackers.status,
        shipmentId: trackers.shipmentId,
        lastEventAt: trackers.lastEventAt,
      })
      .from(trackers)
      .where(exceptional)
      .orderBy(desc(trackers.createdAt), desc(trackers.id))
      .limit(latest),
  ]);
  return {
    inTransit: moving?.n ?? 0,
    onTime: {
      onTime: Number(cohort?.onTime ?? 0),
      basis: Number(cohort?.basis ?? 0),
      withoutEstimate: Number(cohort?.withoutEstimate ?? 0),
    },
    exceptions: { count: open?.n ?? 0, latest: rows },
  };
}
