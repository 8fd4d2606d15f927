import { otherMethods } from "@/lib/api/fallback";
import { paginate } from "@/lib/api/pagination";
import { withApi } from "@/lib/api/with-api";
import { getBatch } from "@/lib/batches/manage-batch";
import { BatchRowsQuery, BatchWithRows } from "@/lib/schemas/batch";
import { idParam } from "@/lib/schemas/params";

export const GET = withApi(
  {
    route: "/v1/batches/{id}",
    params: idParam("bat_"),
    query: BatchRowsQuery,
    doc: {
      id: "getBatch",
      summary: "One batch with its counts, dry-run summary and a page of its rows (line order)",
      response: BatchWithRows,
      responses: { 200: "The batch", 404: "not_found" },
    },
  },
  async ({ ctx, params, query, req }) => {
    const { batch, count, rows } = await getBatch({ ctx, id: params.id, query });
    return { body: { ...batch, rows: paginate(req, query, count, rows) } };
  },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
