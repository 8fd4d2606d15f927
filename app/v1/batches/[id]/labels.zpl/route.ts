import { otherMethods } from "@/lib/api/fallback";
import { printFileResponse } from "@/lib/api/file-response";
import { withApi } from "@/lib/api/with-api";
import { batchLabelsZpl } from "@/lib/batches/print-batch";
import { BatchPrintQuery } from "@/lib/schemas/batch";
import { idParam } from "@/lib/schemas/params";

export const GET = withApi(
  {
    route: "/v1/batches/{id}/labels.zpl",
    params: idParam("bat_"),
    query: BatchPrintQuery.pick({ part: true }),
    doc: {
      id: "getBatchLabelsZpl",
      summary:
        "A part (100 labels) of the batch's ZPL labels in CSV order; Shipwell-Not-Included lists lines whose label " +
        "is in another format",
      response: { files: ["application/zpl"] },
      responses: { 200: "The file", 400: "part beyond the last", 404: "not_found", 409: "No label bought yet" },
    },
  },
  async ({ ctx, params, query }) => printFileResponse(await batchLabelsZpl({ ctx, id: params.id, part: query.part })),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
