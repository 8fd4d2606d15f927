import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { decideRows } from "@/lib/batches/manage-batch";
import { startBatchWork } from "@/lib/jobs/run-batches";
import { Batch, BatchDecision } from "@/lib/schemas/batch";
import { idParam } from "@/lib/schemas/params";

export const POST = withApi(
  {
    route: "/v1/batches/{id}/decisions",
    params: idParam("bat_"),
    body: BatchDecision,
    doc: {
      id: "decideBatchRows",
      summary: "Approve rows above the price cap at their price (bought with the batch) or skip them",
      response: Batch,
      responses: {
        200: "The batch",
        404: "not_found",
        409: "state_conflict: a row is not in needs_decision, or the batch is cancelled",
        400: "validation_error: no such line",
      },
    },
  },
  async ({ ctx, params, body }) => {
    const batch = await decideRows({ ctx, id: params.id, input: body });
    await startBatchWork(batch.id);
    return { body: batch };
  },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
