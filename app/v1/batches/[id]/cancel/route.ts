import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { cancelBatch } from "@/lib/batches/manage-batch";

import { Batch } from "@/lib/schemas/batch";
import { idParam } from "@/lib/schemas/params";

export const POST = withApi(
  {
    route: "/v1/batches/{id}/cancel",
    params: idParam("bat_"),

    doc: {
      id: "cancelBatch",
      summary: "Cancel a batch before or during its purchase (labels bought stay bought)",
      response: Batch,
      responses: { 200: "The batch", 404: "not_found", 409: "state_conflict: the batch is finished" },
    },
  },
  async ({ ctx, params }) => {
    const batch = await cancelBatch({ ctx, id: params.id });

    return { body: batch };
  },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
