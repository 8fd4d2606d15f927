import { otherMethods } from "@/lib/api/fallback";
import { fileResponse } from "@/lib/api/file-response";
import { withApi } from "@/lib/api/with-api";
import { batchPackingList } from "@/lib/batches/print-batch";
import { idParam } from "@/lib/schemas/params";

export const GET = withApi(
  {
    route: "/v1/batches/{id}/packing-list.pdf",
    params: idParam("bat_"),
    doc: {
      id: "getBatchPackingList",
      summary: "The batch's packing list: every row in CSV order with its recipient, service and tracking number",
      response: { files: ["application/pdf"] },
      responses: { 200: "The file", 404: "not_found" },
    },
  },
  async ({ ctx, params }) =>
    fileResponse({
      content: await batchPackingList({ ctx, id: params.id }),
      contentType: "application/pdf",
      filename: `${params.id}-packing-list.pdf`,
    }),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
