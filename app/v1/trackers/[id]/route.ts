import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { StoredTracker, TrackerRefParams } from "@/lib/schemas/tracker";
import { deleteTracker } from "@/lib/trackers/delete-tracker";
import { getTracker } from "@/lib/trackers/get-tracker";

const route = "/v1/trackers/{id}";
// A trk_ id, or a tracking number as 2021.7 clients send it (the newest of the organization's trackers with it).
const params = TrackerRefParams;
const responses = { 200: "The tracker", 404: "not_found" };

export const GET = withApi(
  { route, params, doc: { id: "getTracker", summary: "Retrieve a tracker", response: StoredTracker, responses } },
  async ({ ctx, params }) => ({ body: await getTracker({ ctx, id: params.id }) }),
);

export const DELETE = withApi(
  {
    route,
    params,
    doc: {
      id: "deleteTracker",
      summary: "Stop tracking and delete the tracker (answers it as it was)",
      response: StoredTracker,
      responses,
    },
  },
  async ({ ctx, params }) => ({ body: await deleteTracker({ ctx, id: params.id }) }),
);

export const { POST, PUT, PATCH } = otherMethods("GET", "DELETE");
