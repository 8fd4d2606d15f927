import "server-only";
import { count } from "drizzle-orm";
import type { DomainContext } from "@/lib/context";
import { shipments } from "@/lib/db/schema";
import { SHIPMENT_STATUSES, type ShipmentStatus } from "@/lib/schemas/shipment";
import { shipmentFilters, type ShipmentFilters } from "./list-shipments";

/**
 * How many of the organization's shipments are in each status, narrowed by the list's other filters (search,
 * carrier, dates…): the dashboard's tab counts, in one grouped query. Every status is present, zero when none.
 */
export async function countShipmentsByStatus({
  ctx,
  filters,
}: {
  ctx: DomainContext;
  filters: Omit<ShipmentFilters, "status">;
}): Promise<Record<ShipmentStatus, number>> {
  const rows = await ctx.db
    .select({ status: shipments.status, n: count() })
    .from(shipments)
    .where(shipmentFilters(ctx.org.id, { ...filters, status: undefined }))
    .groupBy(shipments.status);
  const counts = Object.fromEntries(SHIPMENT_STATUSES.map((s) => [s, 0])) as Record<ShipmentStatus, number>;
  for (const { status, n } of rows) counts[status] = n;
  return counts;
}
