import "server-only";
import { count } from "drizzle-orm";
import { TRACKER_STATUSES, type TrackerStatus } from "@/lib/carriers/types";
import type { DomainContext } from "@/lib/context";
import { trackers } from "@/lib/db/schema";
import { trackerFilters, type TrackerFilters } from "./list-trackers";

/**
 * How many of the organization's trackers are in each status, narrowed by the list's other filters (search,
 * carrier): the dashboard's tab counts, in one grouped query. Every status is present, zero when none.
 */
export async function countTrackersByStatus({
  ctx,
  filters,
}: {
  ctx: DomainContext;
  filters: Omit<TrackerFilters, "status" | "delivered">;
}): Promise<Record<TrackerStatus, number>> {
  const rows = await ctx.db
    .select({ status: trackers.status, n: count() })
    .from(trackers)
    .where(trackerFilters(ctx.org.id, { ...filters, status: undefined, delivered: undefined }))
    .groupBy(trackers.status);
  const counts = Object.fromEntries(TRACKER_STATUSES.map((s) => [s, 0])) as Record<TrackerStatus, number>;
  for (const { status, n } of rows) counts[status] = n;
  return counts;
}
