import type { Metadata } from "next";
import type { SearchParams } from "nuqs/server";
import { LinkTabs } from "@/components/ui/link-tabs";
import { listFilters, listQuery } from "@/components/shipments/list-filters";
import { SHIPMENTS_PER_PAGE, loadShipmentListParams, shipmentListUrl } from "@/components/shipments/search-params";
import { ShipmentFilters } from "@/components/shipments/shipment-filters";
import { ShipmentsEmpty } from "@/components/shipments/shipments-empty";
import { ShipmentsTable } from "@/components/shipments/shipments-table";
import { SHIPMENT_TABS, SHIPMENT_TAB_KEYS, tabCount } from "@/components/shipments/status-tabs";
import { listConnections } from "@/lib/connections/list-connections";
import { requireSession } from "@/lib/dashboard/session";
import { countShipmentsByStatus } from "@/lib/shipments/count-by-status";
import { listShipments } from "@/lib/shipments/list-shipments";
import { PageHeader } from "@/components/shell/page-header";
import { ListResults } from "@/components/lists/list-results";
import { CreateLabelLink } from "@/components/shipments/create-label-link";

export const metadata: Metadata = { title: "Shipments" };

export default async function ShipmentsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { ctx } = await requireSession();
  const params = await loadShipmentListParams(searchParams);
  const [list, counts, connections] = await Promise.all([
    listShipments({ ctx, filters: listQuery(params), withLabels: false }),
    countShipmentsByStatus({ ctx, filters: listFilters(params) }),
    listConnections({ ctx, filters: { limit: 100, offset: 0 } }),
  ]);
  const carriers = [...new Set(connections.results.map((c) => c.carrier_name))].sort();
  const pageCount = Math.ceil(list.count / SHIPMENTS_PER_PAGE);
  const filtered = Boolean(params.q || params.carrier || params.from || params.to);
  const url = (changes: Partial<typeof params>) => shipmentListUrl("/shipments", { ...params, ...changes });

  return (
    <div className="grid grid-cols-1 gap-5">
      <PageHeader title="Shipments" action={<CreateLabelLink />} />
      <LinkTabs
        label="Shipment status"
        items={SHIPMENT_TAB_KEYS.map((tab) => ({
          href: url({ status: tab, page: 1 }),
          label: SHIPMENT_TABS[tab].label,
          count: tabCount(tab, counts),
          current: tab === params.status,
        }))}
      />
      <ShipmentFilters carriers={carriers} />
      <ListResults
        count={list.count}
        noun={["shipment", "shipments"]}
        hasRows={list.results.length > 0}
        page={params.page}
        pageCount={pageCount}
        href={(page) => url({ page })}
        empty={
          <ShipmentsEmpty
            reason={list.count > 0 ? "page" : filtered || params.status !== "all" ? "filtered" : "none"}
            clearHref={list.count > 0 ? url({ page: 1 }) : "/shipments"}
          />
        }
      >
        <ShipmentsTable shipments={list.results} />
      </ListResults>
    </div>
  );
}
