import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { confirmPurchase } from "@/lib/batches/manage-batch";
import { startBatchWork } from "@/lib/jobs/run-batches";
import { Batch, BatchPurchase } from "@/lib/schemas/batch";
import { idParam } from "@/lib/schemas/params";

export const POST = withApi(
  {
    route: "/v1/batches/{id}/purchase",
    params: idParam("bat_"),
    body: BatchPurchase,
    optionalBody: true,
    doc: {
      id: "purchaseBatch",
      summary: "Confirm the purchase of a ready batch (after its dry run); rows are bought in the background",
      response: Batch,
      responses: { 200: "The batch", 404: "not_found", 409: "state_conflict: the batch is not ready" },
    },
  },
  async ({ ctx, params, body }) => {
    const batch = await confirmPurchase({ ctx, id: params.id, input: body });
    await startBatchWork(batch.id);
    return { body: batch };
  },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
