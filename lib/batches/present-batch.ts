import "server-only";
import { count, eq } from "drizzle-orm";
import { batchRows, batches } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/tx";
import { BATCH_ROW_STATES } from "@/lib/schemas/batch-states";
import type { Batch, BatchRowOut } from "@/lib/schemas/batch";
import { formatTimestamp } from "@/lib/timestamp";

export type BatchRow = typeof batches.$inferSelect;
export type BatchRowRow = typeof batchRows.$inferSelect;

/** Rows per state, and those waiting for a decision (above the price cap), now. */
export async function rowCounts(db: DbOrTx, batchId: string): Promise<{ counts: Batch["counts"]; held: number }> {
  const rows = await db
    .select({ state: batchRows.state, n: count() })
    .from(batchRows)
    .where(eq(batchRows.batchId, batchId))
    .groupBy(batchRows.state);
  const counts = Object.fromEntries(BATCH_ROW_STATES.map((s) => [s, 0])) as Batch["counts"];
  for (const r of rows) counts[r.state] += Number(r.n);
  return { counts, held: counts.needs_decision };
}

/** The one place a Batch's JSON is built. */
export function presentBatch(row: BatchRow, tally: { counts: Batch["counts"]; held: number }): Batch {
  return {
    id: row.id,
    state: row.state,
    source: row.source,
    kind: row.kind,
    filename: row.filename,
    // Batches stored before rules existed have neither field.
    rate_policy: { ...row.ratePolicy, rules: row.ratePolicy.rules ?? [], fallback: row.ratePolicy.fallback ?? null },
    test_mode: row.testMode,
    row_count: row.rowCount,
    counts: tally.counts,
    held: tally.held,
    summary: row.summary ?? null,
    created_at: formatTimestamp(row.createdAt),
    confirmed_at: row.confirmedAt ? formatTimestamp(row.confirmedAt) : null,
    finished_at: row.finishedAt ? formatTimestamp(row.finishedAt) : null,
  };
}

/** The rows' reference column, whichever header it was read from. */
export function presentBatchRow(row: BatchRowRow, referenceHeader: string | undefined): BatchRowOut {
  const rate = row.rate;
  return {
    line: row.line,
    state: row.state,
    held: row.held,
    reference: referenceHeader ? (row.input[referenceHeader] ?? null) || null : null,
    shipment_id: row.state === "queued" || (row.state === "failed" && rate === null) ? null : row.shipmentId,
    rate: rate
      ? {
          carrier_id: rate.carrierId,
          carrier_name: rate.carrierName,
          service: rate.service,
          amount: rate.totalCharge,
          currency: rate.currency,
          transit_days: rate.transitDays,
        }
      : null,
    error: row.errorCode
      ? {
          code: row.errorCode,
          column: row.errorColumn,
          message: row.errorMessage ?? "",
          carrier_text: row.carrierText,
        }
      : null,
  };
}
