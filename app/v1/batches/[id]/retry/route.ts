import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { retryFailed } from "@/lib/batches/manage-batch";
import { startBatchWork } from "@/lib/jobs/run-batches";
import { Batch } from "@/lib/schemas/batch";
import { idParam } from "@/lib/schemas/params";

export const POST = withApi(
  {
    route: "/v1/batches/{id}/retry",
    params: idParam("bat_"),

    doc: {
      id: "retryBatch",
      summary: "Retry a completed batch's failed purchases (never buying a row twice)",
      response: Batch,
      responses: { 200: "The batch", 404: "not_found", 409: "state_conflict: the batch is not completed_with_errors" },
    },
  },
  async ({ ctx, params }) => {
    const batch = await retryFailed({ ctx, id: params.id });
    await startBatchWork(batch.id);
    return { body: batch };
  },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
