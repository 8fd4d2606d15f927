import { otherMethods } from "@/lib/api/fallback";
import { paginate } from "@/lib/api/pagination";
import { withApi } from "@/lib/api/with-api";
import { TrackerList, TrackerListQuery } from "@/lib/schemas/tracker";
import { listTrackers } from "@/lib/trackers/list-trackers";

export const GET = withApi(
  {
    route: "/v1/trackers",
    query: TrackerListQuery,
    doc: {
      id: "listTrackers",
      summary: "List stored trackers, newest first",
      response: TrackerList,
      responses: { 200: "A page of trackers" },
    },
  },
  async ({ ctx, query, req }) => {
    const { count, results } = await listTrackers({ ctx, filters: query });
    return { body: paginate(req, query, count, results) };
  },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
