import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { idParam } from "@/lib/schemas/params";
import { StoredTracker } from "@/lib/schemas/tracker";
import { deleteTracker } from "@/lib/trackers/delete-tracker";
import { getTracker } from "@/lib/trackers/get-tracker";

const route = "/v1/trackers/{id}";
const params = idParam("trk_");
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
