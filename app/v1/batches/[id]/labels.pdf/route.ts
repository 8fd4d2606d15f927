import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { batchLabelsPdf } from "@/lib/batches/print-batch";
import { printFileResponse } from "@/lib/api/file-response";
import { BatchPrintQuery } from "@/lib/schemas/batch";
import { idParam } from "@/lib/schemas/params";

export const GET = withApi(
  {
    route: "/v1/batches/{id}/labels.pdf",
    params: idParam("bat_"),
    query: BatchPrintQuery,
    doc: {
      id: "getBatchLabelsPdf",
      summary:
        "A part (100 labels) of the batch's labels as one PDF in CSV order: 4×6 pages, or two per Letter/A4 sheet. " +
        "Shipwell-Parts: how many parts; Shipwell-Not-Included: lines whose label is not in the file (ZPL), with why",
      response: { files: ["application/pdf"] },
      responses: { 200: "The file", 400: "part beyond the last", 404: "not_found", 409: "No label bought yet" },
    },
  },
  async ({ ctx, params, query }) => printFileResponse(await batchLabelsPdf({ ctx, id: params.id, query })),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
