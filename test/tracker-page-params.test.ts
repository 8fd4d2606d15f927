import { describe, expect, it } from "vitest";
import { trackerListFilters, trackerListQuery, type TrackerListParams } from "@/components/trackers/search-params";
import { countTrackersByStatus } from "@/lib/trackers/count-by-status";
import { listTrackers } from "@/lib/trackers/list-trackers";
import { makeOrg, orgCtx } from "./helpers";
import { createShipmentFor, purchaseFor } from "./factories";

/** The Trackers page reads its search and carrier from the URL, as anyone may write them. */
describe("the trackers page's URL", () => {
  it("lists with a NUL in the search or the carrier instead of failing the page", async () => {
    const { orgId, key } = await makeOrg();
    const bought = (await purchaseFor(key, await createShipmentFor(key))).body.shipment;
    const ctx = await orgCtx(orgId);
    // Postgres cannot compare text with a NUL in it: sent as it is, the query fails, and the page with it.
    for (const params of [
      { status: "all", q: `${bought.tracking_number}\u0000`, carrier: "", page: 1 },
      { status: "all", q: "", carrier: "sandbox\u0000", page: 1 },
    ] satisfies TrackerListParams[]) {
      const list = await listTrackers({ ctx, filters: trackerListQuery(params) });
      expect(list.results.map((t) => t.id)).toEqual([bought.tracker_id]);
      await expect(countTrackersByStatus({ ctx, filters: trackerListFilters(params) })).resolves.toBeDefined();
    }
  });
});
