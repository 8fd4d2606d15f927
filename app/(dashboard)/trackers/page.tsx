import type { Metadata } from "next";
import type { SearchParams } from "nuqs/server";
import { Radar } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";
import { LinkTabs } from "@/components/ui/link-tabs";
import {
  TRACKERS_PER_PAGE,
  loadTrackerListParams,
  trackerListFilters,
  trackerListQuery,
  trackerListUrl,
} from "@/components/trackers/search-params";
import { TrackParcelDialog } from "@/components/trackers/track-parcel-dialog";
import { TrackerFilters } from "@/components/trackers/tracker-filters";
import { TrackerTable } from "@/components/trackers/tracker-table";
import { listConnections } from "@/lib/connections/list-connections";
import { requireSession } from "@/lib/dashboard/session";
import { trackerShipments } from "@/lib/dashboard/tracker-shipments";
import { TRACKER_TABS, TRACKER_TAB_KEYS, trackerTabCount } from "@/lib/dashboard/tracker-status";
import { countTrackersByStatus } from "@/lib/trackers/count-by-status";
import { listTrackers } from "@/lib/trackers/list-trackers";
import { PageHeader } from "@/components/shell/page-header";
import { ListResults } from "@/components/lists/list-results";

export const metadata: Metadata = { title: "Trackers" };

export default async function TrackersPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { ctx } = await requireSession();
  const params = await loadTrackerListParams(searchParams);
  const [list, counts, connections] = await Promise.all([
    listTrackers({ ctx, filters: trackerListQuery(params) }),
    countTrackersByStatus({ ctx, filters: trackerListFilters(params) }),
    listConnections({ ctx, filters: { limit: 100, offset: 0 } }),
  ]);
  const shipments = await trackerShipments(
    ctx,
    list.results.map((t) => t.shipment_id),
  );
  const carriers = [...new Set(connections.results.map((c) => c.carrier_name))].sort();
  const url = (changes: Partial<typeof params>) => trackerListUrl("/trackers", { ...params, ...changes });
  const filtered = Boolean(params.q || params.carrier) || params.status !== "all";

  return (
    <div className="grid grid-cols-1 gap-5">
      <PageHeader
        title="Trackers"
        description="Every label bought here, and any number you track: refreshed in the background."
        action={<TrackParcelDialog carriers={carriers} />}
      />
      <LinkTabs
        label="Tracker status"
        items={TRACKER_TAB_KEYS.map((tab) => ({
          href: url({ status: tab, page: 1 }),
          label: TRACKER_TABS[tab].label,
          count: trackerTabCount(tab, counts),
          current: tab === params.status,
        }))}
      />
      <TrackerFilters carriers={carriers} />
      <ListResults
        count={list.count}
        noun={["tracker", "trackers"]}
        hasRows={list.results.length > 0}
        page={params.page}
        pageCount={Math.ceil(list.count / TRACKERS_PER_PAGE)}
        href={(page) => url({ page })}
        empty={
          <EmptyState
            icon={Radar}
            title={
              list.count > 0 ? "No trackers on this page" : filtered ? "No tracker matches" : "No parcels followed yet"
            }
            description={
              filtered
                ? "Try another tab, or clear the search and carrier."
                : "Every label bought here is tracked automatically; “Track a parcel” adds any other number."
            }
          />
        }
      >
        <TrackerTable trackers={list.results} shipments={shipments} />
      </ListResults>
    </div>
  );
}
