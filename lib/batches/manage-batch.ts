import "server-only";
import Papa from "papaparse";
import { and, asc, count, desc, eq, inArray, isNotNull, lt, not, or, sql } from "drizzle-orm";
import { recordAudit } from "@/lib/audit/record";
import { withTransaction, type DomainContext } from "@/lib/context";
import { batchRows, batches } from "@/lib/db/schema";
import { NotFoundError, StateConflictError, ValidationError } from "@/lib/errors";
import type {
  Batch,
  BatchDecision,
  BatchListQuery,
  BatchPurchase,
  BatchRowOut,
  BatchRowsQuery,
} from "@/lib/schemas/batch";
import { presentBatch, presentBatchRow, rowCounts, type BatchRow } from "./present-batch";
import { summarize } from "./run-batch";

export async function findBatch(ctx: DomainContext, id: string): Promise<BatchRow> {
  const [row] = await ctx.db
    .select()
    .from(batches)
    .where(and(eq(batches.orgId, ctx.org.id), eq(batches.id, id)));
  if (!row) throw new NotFoundError("Batch not found.");
  return row;
}

/** GET /v1/batches: newest first. */
export async function listBatches({ ctx, filters }: { ctx: DomainContext; filters: BatchListQuery }) {
  const where = and(eq(batches.orgId, ctx.org.id), filters.state ? inArray(batches.state, filters.state) : undefined);
  const [total] = await ctx.db.select({ n: count() }).from(batches).where(where);
  const rows = await ctx.db
    .select()
    .from(batches)
    .where(where)
    .orderBy(desc(batches.createdAt), desc(batches.id))
    .limit(filters.limit)
    .offset(filters.offset);
  const results = await Promise.all(rows.map(async (r) => presentBatch(r, await rowCounts(ctx.db, r.id))));
  return { count: Number(total?.n ?? 0), results };
}

/** GET /v1/batches/{id}: the batch and a page of its rows in line order. */
export async function getBatch({
  ctx,
  id,
  query,
}: {
  ctx: DomainContext;
  id: string;
  query: BatchRowsQuery;
}): Promise<{ batch: Batch; count: number; rows: BatchRowOut[] }> {
  const row = await findBatch(ctx, id);
  const where = and(eq(batchRows.batchId, id), query.row_state ? inArray(batchRows.state, query.row_state) : undefined);
  const [total] = await ctx.db.select({ n: count() }).from(batchRows).where(where);
  const page = await ctx.db
    .select()
    .from(batchRows)
    .where(where)
    .orderBy(asc(batchRows.line))
    .limit(query.limit)
    .offset(query.offset);
  return {
    batch: presentBatch(row, await rowCounts(ctx.db, id)),
    count: Number(total?.n ?? 0),
    rows: page.map((r) => presentBatchRow(r, row.mapping.reference)),
  };
}

async function changeState(
  ctx: DomainContext,
  id: string,
  from: BatchRow["state"][],
  /** The state it goes to; null: it keeps the one it is in (read under the lock). */
  next: BatchRow["state"] | null,
  what: string,
  work: (tx: DomainContext & { db: Parameters<Parameters<typeof withTransaction>[1]>[0]["db"] }) => Promise<void>,
  action: "batch.purchase_confirmed" | "batch.retried" | "batch.cancelled" | "batch.rows_decided",
): Promise<Batch> {
  return withTransaction(ctx, async (tx) => {
    const [row] = await tx.db
      .select()
      .from(batches)
      .where(and(eq(batches.orgId, ctx.org.id), eq(batches.id, id)))
      .for("update");
    if (!row) throw new NotFoundError("Batch not found.");
    if (!from.includes(row.state)) throw new StateConflictError(`The batch is ${row.state}; ${what}`);
    const to = next ?? row.state;
    await work(tx);
    if (to === row.state) {
      // No change of state: a decision on rows of a batch still being rated, or before its purchase.
      const tally = await rowCounts(tx.db, id);
      await recordAudit(tx, { action, resourceId: id, summary: { state: to, ...tally.counts } });
      const summary = to === "ready" ? await summarize(tx.db, id) : row.summary;
      const [same] = await tx.db
        .update(batches)
        .set({ summary, updatedAt: new Date() })
        .where(eq(batches.id, id))
        .returning();
      return presentBatch(same!, tally);
    }
    const now = new Date();
    const [updated] = await tx.db
      .update(batches)
      .set({
        state: to,
        updatedAt: now,
        ...(to === "purchasing" && !row.confirmedAt ? { confirmedAt: now } : {}),
        ...(to === "cancelled" ? { finishedAt: now } : { finishedAt: null }),
      })
      .where(eq(batches.id, id))
      .returning();
    const tally = await rowCounts(tx.db, id);
    await recordAudit(tx, { action, resourceId: id, summary: { state: to, ...tally.counts } });
    return presentBatch(updated!, tally);
  });
}

/**
 * POST /v1/batches/{id}/purchase: the clerk's confirmation after the dry run. Rows waiting above the price cap are
 * approved too when `include_held`; else they keep waiting (POST /v1/batches/{id}/decisions). The purchase itself
 * runs in the background (run-batch.ts).
 */
export async function confirmPurchase({ ctx, id, input }: { ctx: DomainContext; id: string; input: BatchPurchase }) {
  return changeState(
    ctx,
    id,
    ["ready"],
    "purchasing",
    "only a ready batch (its dry run finished) can be purchased.",
    async (tx) => {
      if (input.include_held) {
        await tx.db
          .update(batchRows)
          .set({ state: "rated", held: null })
          .where(and(eq(batchRows.batchId, id), eq(batchRows.state, "needs_decision")));
      }
    },
    "batch.purchase_confirmed",
  );
}

/**
 * POST /v1/batches/{id}/retry: failed purchases are tried again (rows refused by the dry run need a corrected file).
 * Each retried row buys its own shipment through its claim: a label the failed try did buy is found, not bought again.
 */
export async function retryFailed({ ctx, id }: { ctx: DomainContext; id: string }) {
  return changeState(
    ctx,
    id,
    ["completed_with_errors"],
    "purchasing",
    "only a batch completed with errors has rows to retry.",
    async (tx) => {
      await tx.db
        .update(batchRows)
        .set({
          state: "rated",
          errorCode: null,
          errorColumn: null,
          errorMessage: null,
          carrierText: null,
          leaseUntil: null,
        })
        .where(and(eq(batchRows.batchId, id), eq(batchRows.state, "failed"), isNotNull(batchRows.rate)));
    },
    "batch.retried",
  );
}

/**
 * Batch states in which rows can wait for a decision. A purchasing batch does not complete while a row waits
 * (run-batch.ts, settleBatch), so a finished batch has none.
 */
const DECIDE_FROM: BatchRow["state"][] = ["validating", "ready", "purchasing"];

/**
 * POST /v1/batches/{id}/decisions: rows waiting above the price cap (needs_decision) are approved at their price
 * (rated: bought with the batch's purchase, through the same path as every row) or skipped (never bought). Before
 * the purchase, the approved rows join the dry run's summary and wait for the confirmation; during it, they are
 * bought, and the batch completes (once) when no row is left waiting.
 */
export async function decideRows({ ctx, id, input }: { ctx: DomainContext; id: string; input: BatchDecision }) {
  const approve = input.decision === "approve";
  return changeState(
    ctx,
    id,
    DECIDE_FROM,
    null,
    "its rows take no decision now.",
    async (tx) => {
      const rows = await tx.db
        .select({ line: batchRows.line, state: batchRows.state })
        .from(batchRows)
        .where(and(eq(batchRows.batchId, id), inArray(batchRows.line, input.lines)))
        .for("update");
      const found = new Map(rows.map((r) => [r.line, r.state]));
      const unknown = input.lines.filter((l) => !found.has(l));
      if (unknown.length > 0) throw new ValidationError(`no such line: ${unknown.slice(0, 5).join(", ")}`, "lines");
      const settled = rows.filter((r) => r.state !== "needs_decision");
      if (settled.length > 0) {
        const list = settled.slice(0, 5).map((r) => `line ${r.line} is ${r.state}`);
        throw new StateConflictError(`Only rows in needs_decision take a decision: ${list.join(", ")}.`);
      }
      await tx.db
        .update(batchRows)
        .set(
          approve ? { state: "rated", held: null, updatedAt: new Date() } : { state: "skipped", updatedAt: new Date() },
        )
        .where(and(eq(batchRows.batchId, id), inArray(batchRows.line, input.lines)));
    },
    "batch.rows_decided",
  );
}

/** POST /v1/batches/{id}/cancel: before or during the purchase; rows bought stay bought (cancel those shipments). */
export async function cancelBatch({ ctx, id }: { ctx: DomainContext; id: string }) {
  return changeState(
    ctx,
    id,
    ["draft", "validating", "ready", "purchasing"],
    "cancelled",
    "it is finished already.",
    async () => {},
    "batch.cancelled",
  );
}

/** GET /v1/batches/{id}/failed.csv: the failed rows as given, with their line, column and reason, to fix and upload. */
export async function failedRowsCsv({ ctx, id }: { ctx: DomainContext; id: string }): Promise<string> {
  await findBatch(ctx, id);
  const rows = await ctx.db
    .select()
    .from(batchRows)
    .where(and(eq(batchRows.batchId, id), eq(batchRows.state, "failed")))
    .orderBy(asc(batchRows.line));
  const headers = new Set<string>();
  for (const r of rows) for (const h of Object.keys(r.input)) headers.add(h);
  const columns = ["line", "error_code", "error_column", "error_message", "carrier_text", ...headers];
  return Papa.unparse(
    {
      fields: columns,
      data: rows.map((r) => [
        String(r.line),
        r.errorCode ?? "",
        r.errorColumn ?? "",
        r.errorMessage ?? "",
        r.carrierText ?? "",
        ...[...headers].map((h) => r.input[h] ?? ""),
      ]),
    },
    // papaparse's own pattern (`^[=+\-@\t\r].*$`) misses a field whose formula spans lines (`.` stops at a newline),
    // and spreadsheets also read a formula after leading spaces and in fullwidth signs.
    { escapeFormulae: /^[\s]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|^[\t\r]/ },
  );
}

/**
 * Batches with rows to work now: what the in-process loop starts a round for, and the cron a run. A purchasing batch
 * whose rows left all wait for a decision is left out (a person's decision brings it back): it would be a round a
 * second for nothing. The one worked least recently comes first (never worked first, then the oldest), so rounds go
 * round every active batch: oldest first let eight long batches hold every slot of the loop, and the 100 oldest every
 * run of the cron, while newer batches (another organization's) waited for hours. First of all come cancelled batches
 * with rows left `purchasing` by a buyer that is gone: their rounds only settle those rows (run-batch.ts).
 */
export async function activeBatches(db: DomainContext["db"], now = new Date()): Promise<string[]> {
  const limit = 100;
  const abandoned = await db
    .selectDistinct({ id: batchRows.batchId })
    .from(batchRows)
    .innerJoin(batches, eq(batches.id, batchRows.batchId))
    .where(and(eq(batchRows.state, "purchasing"), lt(batchRows.leaseUntil, now), eq(batches.state, "cancelled")))
    .limit(limit);
  const waitingOnly = sql`(exists (select 1 from ${batchRows} w where w.batch_id = ${batches.id}
      and w.state = 'needs_decision') and not exists (select 1 from ${batchRows} o where o.batch_id = ${batches.id}
      and o.state in ('rated', 'purchasing')))`;
  const rows = await db
    .select({ id: batches.id })
    .from(batches)
    .where(or(eq(batches.state, "validating"), and(eq(batches.state, "purchasing"), not(waitingOnly))))
    .orderBy(sql`${batches.lastWorkedAt} asc nulls first`, asc(batches.createdAt), asc(batches.id))
    .limit(limit - abandoned.length);
  return [...abandoned, ...rows].map((r) => r.id);
}
