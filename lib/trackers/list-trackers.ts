import "server-only";
import { and, count, desc, eq, exists, gte, ilike, inArray, lt, ne, or, type SQL } from "drizzle-orm";
import { connectionFilter } from "@/lib/connections/carrier-id";
import type { DomainContext } from "@/lib/context";
import { QueryBuilder } from "drizzle-orm/pg-core";
import { shipments, trackers } from "@/lib/db/schema";
import { likePattern } from "@/lib/db/like";
import type { StoredTracker, TrackerListQuery } from "@/lib/schemas/tracker";
import { loadStoredTrackers } from "./load-trackers";

/**
 * Everything a list can be narrowed by, without its page. `q` (the dashboard's search, not an API filter) matches a
 * tracking number or the linked shipment's reference, anywhere in either, ignoring case.
 */
export type TrackerFilters = Omit<TrackerListQuery, "limit" | "offset"> & { q?: string };

/** The WHERE of a tracker list, shared with the tab counts (count-by-status.ts) so both narrow alike. */
export function trackerFilters(orgId: string, f: TrackerFilters): SQL {
  const pattern = f.q ? likePattern(f.q) : null;
  return and(
    eq(trackers.orgId, orgId),
    f.status ? inArray(trackers.status, f.status) : undefined,
    f.carrier_name ? eq(trackers.carrierName, f.carrier_name) : undefined,
    f.carrier_id ? connectionFilter(f.carrier_id, trackers.carrierId, trackers.carrierConnectionId) : undefined,
    f.test_mode === undefined ? undefined : eq(trackers.testMode, f.test_mode),
    f.created_after ? gte(trackers.createdAt, f.created_after) : undefined,
    f.created_before ? lt(trackers.createdAt, f.created_before) : undefined,
    f.tracking_number ? eq(trackers.trackingNumber, f.tracking_number) : undefined,
    f.delivered === undefined
      ? undefined
      : f.delivered
        ? eq(trackers.status, "delivered")
        : ne(trackers.status, "delivered"),
    pattern
      ? or(
          ilike(trackers.trackingNumber, pattern),
          exists(
            new QueryBuilder()
              .select({ one: shipments.id })
              .from(shipments)
              .where(
                and(
                  eq(shipments.orgId, orgId),
                  eq(shipments.id, trackers.shipmentId),
                  ilike(shipments.reference, pattern),
                ),
              ),
          ),
        )
      : undefined,
  )!;
}

export async function listTrackers({
  ctx,
  filters,
}: {
  ctx: DomainContext;
  filters: TrackerFilters & Pick<TrackerListQuery, "limit" | "offset">;
}): Promise<{ count: number; results: StoredTracker[] }> {
  const where = trackerFilters(ctx.org.id, filters);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(trackers)
      .where(where)
      .orderBy(desc(trackers.createdAt), desc(trackers.id))
      .limit(filters.limit)
      .offset(filters.offset),
    ctx.db.select({ n: count() }).from(trackers).where(where),
  ]);
  return { count: total?.n ?? 0, results: await loadStoredTrackers(ctx.db, ctx.org.id, rows) };
}
