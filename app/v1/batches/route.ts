import { otherMethods } from "@/lib/api/fallback";
import { paginate } from "@/lib/api/pagination";
import { withApi } from "@/lib/api/with-api";
import { createBatch } from "@/lib/batches/create-batch";
import { listBatches } from "@/lib/batches/manage-batch";
import { startBatchWork } from "@/lib/jobs/run-batches";
import { Batch, BatchCreate, BatchList, BatchListQuery } from "@/lib/schemas/batch";

const route = "/v1/batches";

export const GET = withApi(
  {
    route,
    query: BatchListQuery,
    doc: {
      id: "listBatches",
      summary: "List batches, newest first",
      response: BatchList,
      responses: { 200: "A page of batches" },
    },
  },
  async ({ ctx, query, req }) => {
    const { count, results } = await listBatches({ ctx, filters: query });
    return { body: paginate(req, query, count, results) };
  },
);

export const POST = withApi(
  {
    route,
    body: BatchCreate,
    upload: { types: ["text/csv"], maxBytes: 16 * 1024 * 1024 },
    doc: {
      id: "createBatch",
      summary: "Store a batch from a CSV file or stored shipments; its dry run starts in the background",
      response: Batch,
      responses: {
        201: "The batch, validating; rows the file or the schema refused are failed already, with line, column and reason",
        400: "validation_error: no rows, more than 10 000 rows or 100 columns, no header, a broken quote, UTF-16, an unknown mapped column, no shipper",
        413: "payload_too_large: over 16 MiB",
      },
    },
  },
  async ({ ctx, body, upload }) => {
    const batch = await createBatch({ ctx, input: body, file: upload });
    await startBatchWork(batch.id);
    return { status: 201, body: batch };
  },
);

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
