import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { idParam } from "@/lib/schemas/params";
import { TrackerShare } from "@/lib/schemas/tracker";
import { shareTracker } from "@/lib/trackers/share-tracker";

export const POST = withApi(
  {
    route: "/v1/trackers/{id}/share",
    params: idParam("trk_"),
    doc: {
      id: "shareTracker",
      summary: "The tracker's public tracking page (made on first ask, the same ever after)",
      response: TrackerShare,
      responses: { 200: "The public page's id and path", 404: "not_found" },
    },
  },
  async ({ ctx, params }) => {
    const { public_id } = await shareTracker({ ctx, id: params.id });
    return { body: { public_id, path: `/track/${public_id}` } };
  },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
