import { otherMethods } from "@/lib/api/fallback";
import { fileResponse } from "@/lib/api/file-response";
import { withApi } from "@/lib/api/with-api";
import { failedRowsCsv } from "@/lib/batches/manage-batch";
import { idParam } from "@/lib/schemas/params";

export const GET = withApi(
  {
    route: "/v1/batches/{id}/failed.csv",
    params: idParam("bat_"),
    doc: {
      id: "getBatchFailedRows",
      summary: "The failed rows as CSV: line, error code, column, message, carrier text, then the row as given",
      response: { files: ["text/csv"] },
      responses: { 200: "The file", 404: "not_found" },
    },
  },
  async ({ ctx, params }) => {
    const text = await failedRowsCsv({ ctx, id: params.id });
    return fileResponse({
      content: Buffer.from(text, "utf8"),
      contentType: "text/csv; charset=utf-8",
      filename: `${params.id}-failed.csv`,
    });
  },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
