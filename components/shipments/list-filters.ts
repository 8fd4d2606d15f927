import { SHIPMENT_TABS } from "@/components/shipments/status-tabs";
import { SHIPMENTS_PER_PAGE, type ShipmentListParams } from "@/components/shipments/search-params";
import { startOfDay } from "@/lib/dashboard/zoned-day";
import type { ShipmentListQuery } from "@/lib/schemas/shipment";

/** What narrows the list besides its status tab: the same for the rows and for the tab counts. */
export function listFilters(p: ShipmentListParams) {
  const tz = p.tz ?? "UTC";
  const q = p.q.trim().slice(0, 100);
  return {
    q: q || undefined,
    carrier_name: p.carrier.trim().slice(0, 50) || undefined,
    created_after: p.from ? startOfDay(p.from, tz) : undefined,
    // `to` is the last day shown, so the range ends where the next day starts.
    created_before: p.to ? startOfDay(p.to, tz, 1) : undefined,
  } satisfies Omit<ShipmentListQuery, "status" | "limit" | "offset">;
}

/** The page of the chosen tab, as listShipments takes it. */
export function listQuery(p: ShipmentListParams): ShipmentListQuery {
  const page = Math.max(1, Math.min(p.page, 100_000));
  const statuses = SHIPMENT_TABS[p.status].statuses;
  return {
    ...listFilters(p),
    status: statuses ? [...statuses] : undefined,
    limit: SHIPMENTS_PER_PAGE,
    offset: (page - 1) * SHIPMENTS_PER_PAGE,
  };
}
