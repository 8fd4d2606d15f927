import type { Batch, BatchRowOut } from "@/lib/schemas/batch";
import { formatMoney } from "./format";

/** A batch's JSON as GET /v1/batches/{id} answers it: the batch and a page of its rows. */
export type BatchWithRowsJson = Batch & {
  rows: { count: number; next: string | null; previous: string | null; results: BatchRowOut[] };
};

/** The states in which rows still change by themselves: the page polls the batch then. */
export function isWorking(state: Batch["state"]): boolean {
  return state === "validating" || state === "purchasing";
}

/** The batch is being bought but all it has left are rows waiting for a decision: nothing moves until one is made. */
export function waitsForDecision(batch: Pick<Batch, "state" | "counts" | "held">): boolean {
  return batch.state === "purchasing" && batch.held > 0 && batch.counts.rated + batch.counts.purchasing === 0;
}

/** The labels a confirmation buys: the priced rows, and those waiting above the price cap when they are included. */
export function labelsToBuy(batch: Pick<Batch, "counts" | "held">, includeHeld: boolean): number {
  return batch.counts.rated + (includeHeld ? batch.held : 0);
}

/** The dry run's total, per currency ("$12.50 + €3.00"); null before the dry run has one. */
export function totalText(batch: Pick<Batch, "summary">): string | null {
  const totals = batch.summary?.totals ?? [];
  if (totals.length === 0) return null;
  return totals.map((t) => formatMoney(t.amount, t.currency)).join(" + ");
}

/** Rows checked until the purchase, then rows settled (bought, failed or skipped), as a whole percentage. */
export function progressOf(batch: Pick<Batch, "state" | "counts" | "row_count">): number {
  if (batch.row_count === 0) return 100;
  const c = batch.counts;
  const checking = batch.state === "draft" || batch.state === "validating" || batch.state === "ready";
  const done = checking ? batch.row_count - c.queued : c.purchased + c.failed + c.skipped;
  return Math.round((done / batch.row_count) * 100);
}

/** How many 100-label parts the batch's PDF and ZPL come in (the API's `?part=`). */
export const LABELS_PER_PART = 100;
export function partCount(purchased: number): number {
  return Math.max(1, Math.ceil(purchased / LABELS_PER_PART));
}
