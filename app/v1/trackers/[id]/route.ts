import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { idParam } from "@/lib/schemas/params";
import { deleteTracker } from "@/lib/trackers/delete-tracker";
import { getTracker } from "@/lib/trackers/get-tracker";

const route = "/v1/trackers/{id}";
const params = idParam("trk_");

export const GET = withApi({ route, params }, async ({ ctx, params }) => ({
  body: await getTracker({ ctx, id: params.id }),
}));

export const DELETE = withApi({ route, params }, async ({ ctx, params }) => ({
  body: await deleteTracker({ ctx, id: params.id }),
}));

export const { POST, PUT, PATCH } = otherMethods("GET", "DELETE");
