import "server-only";
import { and, count, desc, eq, gte, ilike, inArray, lt, type SQL } from "drizzle-orm";
import type { DomainContext } from "@/lib/context";
import { shipments } from "@/lib/db/schema";
import type { Shipment, ShipmentListQuery } from "@/lib/schemas/shipment";
import { connectionFilter } from "@/lib/connections/carrier-id";
import { likePattern } from "@/lib/db/like";
import { loadShipments } from "./load-shipments";
import { presentShipment } from "./present-shipment";

/** Everything a list can be narrowed by, without its page. */
export type ShipmentFilters = Omit<ShipmentListQuery, "limit" | "offset">;

/** The WHERE of a shipment list, shared with the tab counts (count-by-status.ts) so both narrow alike. */
export function shipmentFilters(orgId: string, f: ShipmentFilters): SQL {
  return and(
    eq(shipments.orgId, orgId),
    f.status ? inArray(shipments.status, f.status) : undefined,
    f.carrier_name ? eq(shipments.carrierName, f.carrier_name) : undefined,
    f.carrier_id ? connectionFilter(f.carrier_id, shipments.carrierId, shipments.carrierConnectionId) : undefined,
    f.service ? eq(shipments.service, f.service) : undefined,
    f.test_mode === undefined ? undefined : eq(shipments.testMode, f.test_mode),
    f.tracking_number ? eq(shipments.trackingNumber, f.tracking_number) : undefined,
    f.reference ? eq(shipments.reference, f.reference) : undefined,
    f.created_after ? gte(shipments.createdAt, f.created_after) : undefined,
    f.created_before ? lt(shipments.createdAt, f.created_before) : undefined,
    f.q ? ilike(shipments.searchText, likePattern(f.q.toLowerCase())) : undefined,
  )!;
}

/**
 * Newest first. The page's ids are found first (the index on org and creation time answers that without touching
 * the rows, so a deep offset walks index entries only), then only those shipments and their parts are read, in one
 * statement.
 * `withLabels: false` (the dashboard's list) reads no label files: every `label` is then null, whether bought or not.
 */
export async function listShipments({
  ctx,
  filters,
  withLabels = true,
}: {
  ctx: DomainContext;
  filters: ShipmentListQuery;
  withLabels?: boolean;
}): Promise<{ count: number; results: Shipment[] }> {
  const where = shipmentFilters(ctx.org.id, filters);
  const [page, [total]] = await Promise.all([
    ctx.db
      .select({ id: shipments.id })
      .from(shipments)
      .where(where)
      .orderBy(desc(shipments.createdAt), desc(shipments.id))
      .limit(filters.limit)
      .offset(filters.offset),
    ctx.db.select({ n: count() }).from(shipments).where(where),
  ]);
  if (page.length === 0) return { count: total?.n ?? 0, results: [] };
  const ids = page.map((p) => p.id);
  const parts = await loadShipments(ctx.db, ctx.org.id, ids, { labels: withLabels });
  const order = new Map(ids.map((id, i) => [id, i]));
  parts.sort((a, b) => order.get(a.row.id)! - order.get(b.row.id)!);
  return { count: total?.n ?? 0, results: parts.map(presentShipment) };
}
