import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { idParam } from "@/lib/schemas/params";
import { refreshTracker } from "@/lib/trackers/refresh-tracker";

export const POST = withApi(
  { route: "/v1/trackers/{id}/refresh", params: idParam("trk_") },
  async ({ ctx, params }) => ({
    body: await refreshTracker({ ctx, id: params.id }),
  }),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
