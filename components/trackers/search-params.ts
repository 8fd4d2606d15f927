import { createLoader, createSerializer, parseAsInteger, parseAsString, parseAsStringLiteral } from "nuqs/server";
import { TRACKER_TABS, TRACKER_TAB_KEYS } from "@/lib/dashboard/tracker-status";
import type { TrackerFilters } from "@/lib/trackers/list-trackers";

export const TRACKERS_PER_PAGE = 50;

/**
 * The trackers list's whole state, in the URL: read on the server with `loadTrackerListParams`, changed in the
 * browser with `useQueryStates(trackerListParams)`. Defaults stay out of the URL.
 */
export const trackerListParams = {
  status: parseAsStringLiteral(TRACKER_TAB_KEYS).withDefault("all"),
  q: parseAsString.withDefault(""),
  carrier: parseAsString.withDefault(""),
  page: parseAsInteger.withDefault(1),
};

export const loadTrackerListParams = createLoader(trackerListParams);
export const trackerListUrl = createSerializer(trackerListParams);
export type TrackerListParams = Awaited<ReturnType<typeof loadTrackerListParams>>;

/** What narrows the list besides its tab: the same for the rows and the tab counts. */
export function trackerListFilters(p: TrackerListParams) {
  // Without NULs: the URL is anyone's to write, and Postgres refuses to compare text holding one (no stored text does).
  const text = (v: string, max: number) => v.replaceAll("\u0000", "").trim().slice(0, max) || undefined;
  return { q: text(p.q, 100), carrier_name: text(p.carrier, 50) } satisfies TrackerFilters;
}

/** The page of the chosen tab, as listTrackers takes it. */
export function trackerListQuery(p: TrackerListParams) {
  const page = Math.max(1, Math.min(p.page, 100_000));
  const statuses = TRACKER_TABS[p.status].statuses;
  return {
    ...trackerListFilters(p),
    status: statuses ? [...statuses] : undefined,
    limit: TRACKERS_PER_PAGE,
    offset: (page - 1) * TRACKERS_PER_PAGE,
  };
}
