import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { idParam } from "@/lib/schemas/params";
import { StoredTracker } from "@/lib/schemas/tracker";
import { refreshTracker } from "@/lib/trackers/refresh-tracker";

export const POST = withApi(
  {
    route: "/v1/trackers/{id}/refresh",
    params: idParam("trk_"),
    doc: {
      id: "refreshTracker",
      summary: "Ask the carrier now and merge the new events",
      response: StoredTracker,
      responses: {
        200: "The refreshed tracker",
        404: "not_found, or carrier_not_found",
        424: "The carrier failed; the tracker is unchanged",
      },
    },
  },
  async ({ ctx, params }) => ({ body: await refreshTracker({ ctx, id: params.id }) }),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
