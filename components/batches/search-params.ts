import { createLoader, createSerializer, parseAsInteger, parseAsStringLiteral } from "nuqs/server";

export const BATCHES_PER_PAGE = 25;
export const BATCH_ROWS_PER_PAGE = 100;

/** The batches list's state in the URL: the page. */
const batchListParams = { page: parseAsInteger.withDefault(1) };
export const loadBatchListParams = createLoader(batchListParams);
export const batchListUrl = createSerializer(batchListParams);

/**
 * A batch's rows in the URL: every row, only the failed ones or those waiting for a decision, and the page (100 rows each). Read on the server
 * for the first render, changed in the browser with `useQueryStates(batchRowParams)`; the rows then come from the
 * API, polled while the batch works.
 */
export const batchRowParams = {
  rows: parseAsStringLiteral(["all", "failed", "held"] as const).withDefault("all"),
  page: parseAsInteger.withDefault(1),
};
export const loadBatchRowParams = createLoader(batchRowParams);
export type BatchRowParams = Awaited<ReturnType<typeof loadBatchRowParams>>;

/** GET /v1/batches/{id} for these row params: the same query the server renders first and the browser polls. */
export function batchRowsQuery(params: BatchRowParams) {
  return {
    limit: BATCH_ROWS_PER_PAGE,
    offset: (Math.max(1, params.page) - 1) * BATCH_ROWS_PER_PAGE,
    ...(params.rows === "failed" ? { row_state: ["failed" as const] } : {}),
    ...(params.rows === "held" ? { row_state: ["needs_decision" as const] } : {}),
  };
}
