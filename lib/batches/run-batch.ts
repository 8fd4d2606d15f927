import "server-only";
import { and, asc, eq, inArray, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import { recordAudit } from "@/lib/audit/record";
import { forOrganization, withTransaction, type DomainContext, type SystemContext } from "@/lib/context";
import { batchRows, batches, rates as ratesTable, shipments, type StoredRowRate } from "@/lib/db/schema";
import { isDatabaseUnavailable } from "@/lib/db/unavailable";
import { rowsOf } from "@/lib/db/rows";
import { CarrierFailureError, DomainError } from "@/lib/errors";
import type { CarrierMessage } from "@/lib/carriers/types";
import { batchPaceKey, paceShared } from "@/lib/connections/pace";
import { fetchRates } from "@/lib/rates/fetch-rates";
import type { RateFields } from "@/lib/rates/present-rate";
import { ShipmentPurchase, type ShipmentCreate } from "@/lib/schemas/shipment";
import { storeShipment } from "@/lib/shipments/create-shipment";
import { getShipment } from "@/lib/shipments/get-shipment";
import { purchaseAttemptOf } from "@/lib/shipments/outcome-unknown";
import { purchaseShipment } from "@/lib/shipments/purchase-shipment";
import { recordEvents } from "@/lib/webhooks/outbox";
import { presentBatch, rowCounts, type BatchRow, type BatchRowRow } from "./present-batch";
import { pickRate, type Picked, type RowParcel } from "./rate-policy";
import { carrierAddressProblem, type RecipientLines } from "./row-input";

/** A worker's hold on a row; a worker that dies leaves it to be taken over when this runs out. */
const ROW_LEASE_MS = 5 * 60_000;
// A row that failed this many times with something other than a domain error (a bug, a payload a verb cannot take)
// is failed rather than taken again forever: it would keep its batch from ever finishing.
const MAX_ATTEMPTS = 5;
/** Rows worked at once per batch per process (each still paced by its connection's budget). */
const WORKERS = 16;
/**
 * Rows a dry-run worker claims with one statement, and whose outcomes it writes with one: a statement per row (claim,
 * then write) made the round trips, not the rating, the dry run's cost. Purchases are claimed one at a time: each is
 * a paced carrier call of its own.
 */
const CLAIM_ROWS = 25;
/** A connection's calls per second for batches, unless its config says `batch_calls_per_second`. */
const DEFAULT_BATCH_CALLS_PER_SECOND = 20;

export interface BatchRound {
  batchId: string;
  worked: number;
  /** The batch's state when the round ended. */
  state: BatchRow["state"] | null;
  /**
   * Rows are left to work (the round ran out of time or rows): another round should follow. False when the batch is
   * settled, and when all it has left are rows waiting for a person's decision (POST /v1/batches/{id}/decisions
   * starts the work again).
   */
  more: boolean;
}

/**
 * Works one batch's rows for up to `maxDurationMs` (or `maxRows`): the dry run while it is validating, the purchase
 * while it is purchasing. Workers claim rows with `FOR UPDATE SKIP LOCKED` and a lease (the dry run up to CLAIM_ROWS
 * at a time, the purchase one), so any number of rounds, in any number of processes, share a batch and never work one
 * row at once; a row whose worker died is taken over when its lease ends. When no row is left, the batch is settled
 * (ready, or completed).
 */
export async function runBatch({
  ctx,
  batchId,
  maxDurationMs,
  maxRows = Infinity,
  workers = WORKERS,
}: {
  ctx: SystemContext;
  batchId: string;
  maxDurationMs: number;
  maxRows?: number;
  workers?: number;
}): Promise<BatchRound> {
  const [batch] = await ctx.db.select().from(batches).where(eq(batches.id, batchId));
  if (batch?.state === "cancelled") return settleAbandoned(ctx, batch);
  if (!batch || (batch.state !== "validating" && batch.state !== "purchasing")) {
    return { batchId, worked: 0, state: batch?.state ?? null, more: false };
  }
  // The runners take the batch worked least recently first (manage-batch.ts, activeBatches).
  await ctx.db.update(batches).set({ lastWorkedAt: new Date() }).where(eq(batches.id, batchId));
  // Every carrier call a row makes waits for its connection's budget; see paced().
  const orgCtx = paced(forOrganization(ctx, batch.orgId), batch.state === "purchasing" ? batch.id : null);
  const deadline = Date.now() + maxDurationMs;
  let worked = 0;
  let stopped = false;
  const worker = async () => {
    while (!stopped && Date.now() < deadline && worked < maxRows) {
      // Counted before the claim, so workers claiming at once do not take more than maxRows between them.
      const want = batch.state === "validating" ? Math.min(CLAIM_ROWS, maxRows - worked) : 1;
      worked += want;
      const rows = await claimRows(ctx, batch, new Date(), want);
      worked -= want - rows.length;
      if (rows.length === 0) return;
      if (batch.state === "validating") await rateRows(orgCtx, batch, rows, deadline);
      else {
        const keepGoing = await purchaseRow(orgCtx, rows[0]!);
        if (!keepGoing) stopped = true;
      }
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
  const settled = await settleBatch(ctx, batch);
  return { batchId, worked, state: settled.state, more: settled.more };
}

/**
 * The next rows this phase has to do (at most `limit`; the purchase takes one), claimed with a lease; none when none
 * is left to claim. Each claim adds one to a row's `attempts`: the fencing token its outcome is written with. Of a
 * cancelled batch, the rows left `purchasing` whose lease ran out (their buyer died, or its outcome was fenced off):
 * claimed only to be settled from their shipment (settleAbandoned), never bought.
 */
async function claimRows(ctx: SystemContext, batch: BatchRow, now: Date, limit: number): Promise<BatchRowRow[]> {
  // The first rows in CSV order of one state, locked. Each asks the (batch, state, line) index for one state only, so
  // a claim costs the same at the last row as at the first: one scan in line order over every row of the batch
  // filtered by state made each claim slower than the last, and the dry run of 10 000 rows quadratic.
  const first = (state: BatchRowRow["state"], lease?: SQL, count = 1) =>
    ctx.db
      .select({ line: batchRows.line })
      .from(batchRows)
      .where(
        and(
          eq(batchRows.batchId, batch.id),
          eq(batchRows.state, state),
          lease,
          // Cancelled (or finished) since this round read it: nothing more is claimed for it.
          sql`exists (select 1 from ${batches} where ${batches.id} = ${batch.id} and ${batches.state} = ${batch.state})`,
        ),
      )
      .orderBy(asc(batchRows.line))
      .limit(count)
      .for("update", { skipLocked: true });
  // Validating: queued rows nobody holds, or whose holder's lease ran out. Purchasing: a row whose buyer's lease ran
  // out first (COALESCE asks the second only when the first finds none), else the next rated row. An uncorrelated
  // ARRAY(subquery) or scalar subquery is evaluated once (an InitPlan), so one statement claims the rows it locked
  // and no others: an IN (subquery) may be planned as a join that runs the locking scan again.
  const lines =
    batch.state === "validating"
      ? sql`any(array(${first("queued", or(isNull(batchRows.leaseUntil), lt(batchRows.leaseUntil, now)), limit)}))`
      : batch.state === "cancelled"
        ? sql`any(array(${first("purchasing", lt(batchRows.leaseUntil, now), limit)}))`
        : sql`coalesce((${first("purchasing", lt(batchRows.leaseUntil, now))}), (${first("rated")}))`;
  return ctx.db
    .update(batchRows)
    .set({
      leaseUntil: new Date(now.getTime() + ROW_LEASE_MS),
      attempts: sql`${batchRows.attempts} + 1`,
      updatedAt: now,
      ...(batch.state === "purchasing" ? { state: "purchasing" as const } : {}),
    })
    .where(and(eq(batchRows.batchId, batch.id), sql`${batchRows.line} = ${lines}`))
    .returning()
    .then((rows) => rows.sort((a, b) => a.line - b.line));
}

/**
 * Writes a row's outcome, if this worker still holds it: `attempts` is the claim's fencing token (each claim adds one),
 * so a worker whose lease ran out and whose row was taken over cannot overwrite the newer worker's outcome.
 */
async function finishRow(ctx: DomainContext, row: BatchRowRow, set: Partial<BatchRowRow>) {
  await ctx.db
    .update(batchRows)
    .set({ leaseUntil: null, updatedAt: new Date(), ...set })
    .where(and(eq(batchRows.batchId, row.batchId), eq(batchRows.line, row.line), eq(batchRows.attempts, row.attempts)));
}

/** What a worker writes of a row it holds: its state and the fields that say why. */
type RowOutcome = Partial<
  Pick<
    BatchRowRow,
    "state" | "rate" | "held" | "errorCode" | "errorColumn" | "errorMessage" | "carrierText" | "givenBack"
  >
>;

/**
 * The tries a row has had: its claims less those given back untried (a dry run's round out of time, a purchase whose
 * batch was cancelled while it waited for its slot). A row given back ten times by a slow carrier's budget still gets
 * its MAX_ATTEMPTS tries before an error nobody expected fails it. `attempts` itself only grows: it is the fence.
 */
const tries = (row: BatchRowRow) => row.attempts - row.givenBack;

/**
 * The dry run of a chunk of claimed rows, in CSV order, and its outcomes written with one statement. The rows not
 * yet rated when the round runs out of time, or when half their lease is gone (rows paced by a slow budget), are
 * given back (their lease cleared) for the next claim rather than held while they wait.
 */
async function rateRows(ctx: DomainContext, batch: BatchRow, rows: BatchRowRow[], deadline: number): Promise<void> {
  const claimedAt = Date.now();
  const done: { row: BatchRowRow; outcome: RowOutcome }[] = [];
  let i = 0;
  for (; i < rows.length; i++) {
    const now = Date.now();
    if (i > 0 && (now >= deadline || now - claimedAt > ROW_LEASE_MS / 2)) break;
    const outcome = await rateRow(ctx, batch, rows[i]!);
    if (outcome) done.push({ row: rows[i]!, outcome });
  }
  // Given back untried: an outcome that changes nothing but the lease and counts the give-back (see tries).
  for (const row of rows.slice(i)) done.push({ row, outcome: { givenBack: row.givenBack + 1 } });
  try {
    await writeOutcomes(ctx, done);
  } catch (err) {
    // The database away: the rows keep their leases and are taken over when they run out.
    ctx.log.error({ msg: "batch rows not written", batch_id: batch.id, err });
  }
}

/**
 * Writes the outcomes of rows this worker claimed with one statement, each row fenced on its own `attempts` (the
 * claim's token): a row whose lease ran out and was taken over by another worker is left to that worker, the chunk's
 * other rows are written. Should the statement fail for something other than the database being away (one row's
 * value it cannot take, say), each row is written alone, so one row cannot keep its chunk from ever being written.
 */
async function writeOutcomes(ctx: DomainContext, done: { row: BatchRowRow; outcome: RowOutcome }[]): Promise<void> {
  if (done.length === 0) return;
  const batchId = done[0]!.row.batchId;
  const values = done.map(({ row, outcome }) => {
    // A field the outcome does not set keeps the row's value (the row is held, so no one else changed it).
    const v = { ...row, ...outcome };
    return sql`(${row.line}::int, ${row.attempts}::int, ${v.state}::text, ${v.rate === null ? null : JSON.stringify(v.rate)}::jsonb,
      ${v.held}::text, ${v.errorCode}::text, ${v.errorColumn}::text, ${v.errorMessage}::text, ${v.carrierText}::text,
      ${v.givenBack}::int)`;
  });
  try {
    await ctx.db.execute(sql`update ${batchRows} set state = v.state, rate = v.rate, held = v.held,
        error_code = v.error_code, error_column = v.error_column, error_message = v.error_message,
        carrier_text = v.carrier_text, given_back = v.given_back, lease_until = null,
        updated_at = ${new Date().toISOString()}::timestamptz
      from (values ${sql.join(values, sql`, `)})
        as v(line, attempts, state, rate, held, error_code, error_column, error_message, carrier_text, given_back)
      where ${batchRows.batchId} = ${batchId} and ${batchRows.line} = v.line and ${batchRows.attempts} = v.attempts`);
  } catch (err) {
    if (isDatabaseUnavailable(err) || done.length === 1) throw err;
    ctx.log.error({ msg: "batch rows not written together; writing each alone", batch_id: batchId, err });
    for (const one of done) {
      try {
        await writeOutcomes(ctx, [one]);
      } catch (rowErr) {
        // The row keeps its lease and is taken over when it runs out (rateRow fails it after its attempts).
        ctx.log.error({ msg: "batch row not written", batch_id: batchId, line: one.row.line, err: rowErr });
      }
    }
  }
}

/**
 * The row's purchase is done: bought now, or found bought at the row's rate by an earlier try whose row write was lost.
 * Written whether or not this worker still holds the row: the label is bought, whoever holds the row now, and a worker
 * whose lease ran out under a purchase must not leave its row to a worker that only saw that purchase's claim (and
 * wrote nothing), nor, once the batch is cancelled, to no one. Only a row still on its way to a purchase (rated, given
 * back; purchasing) is written: a purchase has no other outcome to overwrite.
 */
async function markPurchased(ctx: DomainContext, row: BatchRowRow) {
  await ctx.db
    .update(batchRows)
    .set({
      state: "purchased",
      errorCode: null,
      errorColumn: null,
      errorMessage: null,
      carrierText: null,
      leaseUntil: null,
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(batchRows.batchId, row.batchId),
        eq(batchRows.line, row.line),
        inArray(batchRows.state, ["rated", "purchasing"]),
      ),
    );
}

/** The shipment as a row's purchase reads it after the fact: bought, at which rate, and whether a claim is live. */
type StoredPurchase = {
  status: string;
  selectedRateId: string | null;
  pendingUntil: Date | null;
  meta: Record<string, unknown>;
};

async function storedPurchase(ctx: DomainContext, row: BatchRowRow): Promise<StoredPurchase | undefined> {
  const [stored] = await ctx.db
    .select({
      status: shipments.status,
      selectedRateId: shipments.selectedRateId,
      pendingUntil: shipments.pendingUntil,
      meta: shipments.meta,
    })
    .from(shipments)
    .where(and(eq(shipments.orgId, ctx.org.id), eq(shipments.id, row.shipmentId)));
  return stored;
}

/**
 * A row whose shipment is bought (neither created nor cancelled): the batch's purchase when it was bought at the row's
 * rate (the purchase records the rate's id as `selected_rate_id`, a re-quoted price keeping it), else bought outside
 * this batch (a clerk's own purchase, another batch's at another rate), which this batch neither counts nor prints.
 */
async function settleBought(ctx: DomainContext, row: BatchRowRow, stored: StoredPurchase): Promise<void> {
  if (stored.selectedRateId !== null && stored.selectedRateId === row.rate?.id) return markPurchased(ctx, row);
  await finishRow(ctx, row, {
    state: "failed",
    errorCode: "state_conflict",
    // A stored shipment's row names it; a CSV row's shipment is the batch's own (its id allotted to the row).
    errorColumn: row.request ? null : "shipment_id",
    errorMessage: `the shipment was bought outside this batch (it is ${stored.status})`,
    carrierText: null,
  });
}

/** A row this worker gives back untouched (its batch was cancelled before its purchase began). */
async function releaseRow(ctx: DomainContext, row: BatchRowRow) {
  await finishRow(ctx, row, { state: "rated", givenBack: row.givenBack + 1 });
}

/** Thrown by a purchase's pace when its batch stopped being bought (cancelled) while the row waited for its slot. */
class BatchStopped extends Error {}

/** The batch is still being bought: checked once the slot has come, right before a carrier is paid. */
async function assertStillPurchasing(ctx: DomainContext, batchId: string): Promise<void> {
  const [batch] = await ctx.db.select({ state: batches.state }).from(batches).where(eq(batches.id, batchId));
  if (batch?.state !== "purchasing") throw new BatchStopped("the batch is no longer being bought");
}

function carrierText(messages: CarrierMessage[]): string | null {
  const text = messages
    .filter((m) => m.level !== "info")
    .map((m) => `${m.carrier_name ?? ""} ${m.code ?? ""}: ${m.message}`.trim())
    .join("; ");
  return text === "" ? null : text.slice(0, 2000);
}

/**
 * The dry run of one row: rate it (or read its stored shipment's rates), pick by the policy, hold above the cap.
 * Answers the row's outcome to write, or null when the row keeps its lease to be taken over (the database away, a bug).
 */
async function rateRow(ctx: DomainContext, batch: BatchRow, row: BatchRowRow): Promise<RowOutcome | null> {
  try {
    let candidates: RateFields[];
    let messages: CarrierMessage[] = [];
    let parcel: (RowParcel & { recipient: RecipientLines }) | null = null;
    if (row.request) {
      const input = row.request as unknown as ShipmentCreate;
      parcel = input;
      // Paced like a purchase when the row names its carrier; else by the batch's workers alone.
      const quoted = await fetchRates({ ctx: input.carrier_ids.length === 1 ? ctx : unpaced(ctx), input });
      candidates = quoted.rates;
      messages = quoted.messages;
    } else {
      const [stored] = await ctx.db
        .select({ status: shipments.status })
        .from(shipments)
        .where(and(eq(shipments.orgId, ctx.org.id), eq(shipments.id, row.shipmentId)));
      if (!stored || stored.status !== "created") {
        return {
          state: "failed",
          errorCode: "state_conflict",
          errorColumn: "shipment_id",
          errorMessage: stored ? `the shipment is already ${stored.status}` : "no such shipment",
        };
      }
      candidates = (
        await ctx.db
          .select()
          .from(ratesTable)
          .where(and(eq(ratesTable.orgId, ctx.org.id), eq(ratesTable.shipmentId, row.shipmentId)))
      ).map(({ orgId: _o, shipmentId: _s, position: _p, ...r }) => r);
      // Rules match on the parcel, its destination and value, and the carrier's checks read its recipient: the
      // stored shipment's.
      parcel = await getShipment({ ctx, id: row.shipmentId });
    }
    const request = row.request as unknown as ShipmentCreate | null;
    const picked = pickDeliverable(candidates, batch.ratePolicy, request, parcel);
    if (!picked.ok) {
      return {
        state: "failed",
        errorCode: picked.code,
        errorColumn: headerOf(batch, picked.column),
        errorMessage: picked.message,
        carrierText: carrierText(messages),
      };
    }
    return {
      state: picked.held ? "needs_decision" : "rated",
      rate: picked.rate as StoredRowRate,
      held: picked.held,
      errorCode: null,
      errorColumn: null,
      errorMessage: null,
      carrierText: null,
    };
  } catch (err) {
    if (err instanceof CarrierFailureError) {
      return {
        state: "failed",
        errorCode: "rating_failed",
        errorColumn: (row.request as unknown as ShipmentCreate | null)?.services.length
          ? headerOf(batch, "service")
          : null,
        errorMessage: "no carrier could rate this parcel",
        carrierText: carrierText(err.messages),
      };
    }
    if (err instanceof DomainError) {
      return {
        state: "failed",
        errorCode: err.code,
        errorColumn: null,
        errorMessage: err.message,
      };
    }
    // The database away, a bug: the row keeps its lease and is taken over when it runs out, a few times.
    ctx.log.error({ msg: "batch row not rated", batch_id: row.batchId, line: row.line, err });
    if (tries(row) >= MAX_ATTEMPTS && !isDatabaseUnavailable(err)) {
      return {
        state: "failed",
        errorCode: "internal_error",
        errorColumn: null,
        errorMessage: `this row could not be rated in ${tries(row)} attempts`,
      };
    }
    return null;
  }
}

/**
 * The policy's pick among the rates whose carrier can deliver to the recipient as given (lib/addresses' checks with
 * the carrier and service named: PO Box, line lengths). The policy picks first; a pick the carrier cannot deliver
 * gives way to the policy's pick among the rest, and with none left (a fixed service, a row's own carrier) the row
 * fails with the check's code, field and words.
 */
function pickDeliverable(
  candidates: RateFields[],
  policy: BatchRow["ratePolicy"],
  request: ShipmentCreate | null,
  parcel: (RowParcel & { recipient: RecipientLines }) | null,
): Picked {
  const first = pickRate(candidates, policy, request, parcel);
  if (!first.ok || !parcel) return first;
  const problemOf = (r: RateFields) => carrierAddressProblem(parcel.recipient, r.carrierName, r.service);
  const problem = problemOf(first.rate);
  if (!problem) return first;
  const second = pickRate(
    candidates.filter((r) => !problemOf(r)),
    policy,
    request,
    parcel,
  );
  return second.ok ? second : { ok: false, code: problem.code, column: problem.field, message: problem.message };
}

/** The CSV header a field was read from (the batch's mapping), else the field's name. */
function headerOf(batch: BatchRow, field: string | null): string | null {
  return field === null ? null : (batch.mapping[field] ?? field);
}

/**
 * The purchase of one row, through the same verb as POST /v1/shipments/{id}/purchase: its claim, lost-answer
 * settlement and events. A CSV row's shipment is stored first, under the id allotted to the row, so a second try
 * (a retry, a crash, another worker after the lease) finds the same shipment, and its claim buys at most one label.
 * Answers false when the batch should stop being worked here (the database is away, the batch was cancelled).
 */
async function purchaseRow(ctx: DomainContext, row: BatchRowRow): Promise<boolean> {
  const rate = row.rate!;
  try {
    if (row.request) await storeOnce(ctx, row, rate);
    await purchaseShipment({ ctx, id: row.shipmentId, input: ShipmentPurchase.parse({ selected_rate_id: rate.id }) });
    await markPurchased(ctx, row);
    return true;
  } catch (err) {
    if (err instanceof BatchStopped) {
      await releaseRow(ctx, row);
      return false;
    }
    const poisoned = !(err instanceof DomainError) && tries(row) >= MAX_ATTEMPTS && !isDatabaseUnavailable(err);
    if (err instanceof DomainError || poisoned) {
      // Bought already (an earlier try whose row write was lost, or someone else): the shipment says so.
      const stored = await storedPurchase(ctx, row);
      if (stored && stored.status !== "created" && stored.status !== "cancelled") {
        await settleBought(ctx, row, stored);
        return true;
      }
      // Another worker's purchase of this shipment is in flight (this row's lease ran out under it): not a failure.
      // The row keeps its lease; whoever takes it next finds the shipment bought, or free to buy.
      if (stored?.pendingUntil && stored.pendingUntil > new Date()) return true;
      if (poisoned) {
        ctx.log.error({ msg: "batch row failed after its attempts", batch_id: row.batchId, line: row.line, err });
        await finishRow(ctx, row, {
          state: "failed",
          errorCode: "internal_error",
          errorColumn: null,
          errorMessage: `this row could not be purchased in ${tries(row)} attempts`,
        });
        return true;
      }
      const refused = err as DomainError;
      await finishRow(ctx, row, {
        state: "failed",
        errorCode: refused.code,
        errorColumn: null,
        errorMessage: refused.message.slice(0, 500),
        carrierText: refused instanceof CarrierFailureError ? carrierText(refused.messages) : null,
      });
      return true;
    }
    ctx.log.error({
      msg: "batch row not purchased; its lease lets another round take it",
      batch_id: row.batchId,
      line: row.line,
      err,
    });
    return !isDatabaseUnavailable(err);
  }
}

/**
 * A cancelled batch's rows left `purchasing` by a buyer that is gone (its process died after the carrier sold, or its
 * lease ran out mid-purchase and its outcome was fenced off): each is settled from its shipment, never bought. Bought
 * at the row's rate: purchased (its label stays in the batch's files); bought otherwise: failed, bought outside this
 * batch; still free (no claim, no attempt): given back `rated`, as the rows a cancel stopped; a purchase whose answer
 * was lost (its attempt unsettled): failed `purchase_outcome_unknown`, settled on the shipment ("When an answer is
 * lost"), since a cancelled batch buys nothing, not even to settle it; a claim still live: left to its lease.
 */
async function settleAbandoned(ctx: SystemContext, batch: BatchRow): Promise<BatchRound> {
  const orgCtx = forOrganization(ctx, batch.orgId);
  let worked = 0;
  for (;;) {
    const now = new Date();
    const rows = await claimRows(ctx, batch, now, CLAIM_ROWS);
    for (const row of rows) {
      try {
        await settleAbandonedRow(orgCtx, row, now);
        worked++;
      } catch (err) {
        // The row keeps its lease and is taken again when it runs out.
        ctx.log.error({ msg: "cancelled batch row not settled", batch_id: batch.id, line: row.line, err });
        return { batchId: batch.id, worked, state: batch.state, more: false };
      }
    }
    if (rows.length < CLAIM_ROWS) return { batchId: batch.id, worked, state: batch.state, more: false };
  }
}

async function settleAbandonedRow(ctx: DomainContext, row: BatchRowRow, now: Date): Promise<void> {
  const stored = await storedPurchase(ctx, row);
  if (!stored) {
    // A CSV row whose shipment its buyer never stored: nothing was bought.
    await releaseRow(ctx, row);
  } else if (stored.pendingUntil && stored.pendingUntil > now) {
    // A purchase (or a cancellation) of the shipment still under way: the row keeps its lease, and is settled once
    // it runs out, from what that operation left.
  } else if (stored.status === "cancelled") {
    await finishRow(ctx, row, {
      state: "failed",
      errorCode: "state_conflict",
      errorColumn: row.request ? null : "shipment_id",
      errorMessage: "the shipment is cancelled",
    });
  } else if (stored.status !== "created") {
    await settleBought(ctx, row, stored);
  } else if (purchaseAttemptOf(stored.meta)) {
    await finishRow(ctx, row, {
      state: "failed",
      errorCode: "purchase_outcome_unknown",
      errorColumn: null,
      errorMessage:
        "the batch was cancelled while this row's purchase had lost its answer: settle it on the shipment (buy it with confirm_rebuy, or cancel it)",
    });
  } else {
    await releaseRow(ctx, row);
  }
}

/** Stores a CSV row's shipment under its allotted id, with the rate the dry run picked; once. */
async function storeOnce(ctx: DomainContext, row: BatchRowRow, rate: StoredRowRate): Promise<void> {
  const [exists] = await ctx.db
    .select({ id: shipments.id })
    .from(shipments)
    .where(and(eq(shipments.orgId, ctx.org.id), eq(shipments.id, row.shipmentId)));
  if (exists) return;
  const input = row.request as unknown as ShipmentCreate;
  await storeShipment({
    ctx,
    id: row.shipmentId,
    input,
    quoted: { rates: [rate as unknown as RateFields], messages: [], partial: false, testMode: rate.testMode },
  });
}

/**
 * The context a batch's rows run with: each call to a carrier, rating or purchase, first waits for its connection's
 * budget, counted across every instance on the database (lib/connections/pace.ts). The verbs wait right before the
 * call, after their own statements, so those statements' time does not bunch the calls. A purchase (`purchasing`, the
 * batch's id) checks once its slot has come that the batch is still being bought, before it claims its shipment: a
 * batch cancelled while its rows wait buys none of them, and none waits holding a claim.
 */
function paced(ctx: DomainContext, purchasing: string | null): DomainContext {
  return {
    ...ctx,
    paceCarrier: (connection, { last, undo, withinMs } = {}) =>
      paceShared(
        ctx.db,
        batchPaceKey(connection.id),
        Number(connection.config.batch_calls_per_second) || DEFAULT_BATCH_CALLS_PER_SECOND,
        {
          // Checked with a purchase's claim, its last step. A further request of a call already under way (a retry
          // after a 429, a token renewal) only waits: a cancel stops calls before they start, not halfway.
          last:
            last &&
            (async () => {
              if (purchasing !== null) await assertStillPurchasing(ctx, purchasing);
              await last();
            }),
          undo,
          withinMs,
        },
      ),
  };
}

function unpaced(ctx: DomainContext): DomainContext {
  return { ...ctx, paceCarrier: undefined };
}

/**
 * Settles a batch whose phase has no row left: validating → ready (with the dry run's summary), purchasing →
 * completed or completed_with_errors (with its webhook event and audit row). A purchasing batch with rows waiting
 * for a decision (needs_decision) stays purchasing until each is approved (and bought) or skipped, so a batch
 * completes once, with one event. The batch row's lock decides, so of several workers finishing at once exactly one
 * settles it.
 */
async function settleBatch(ctx: SystemContext, batch: BatchRow): Promise<{ state: BatchRow["state"]; more: boolean }> {
  const open = batch.state === "validating" ? ["queued"] : ["rated", "purchasing"];
  return withTransaction(forOrganization(ctx, batch.orgId), async (tx) => {
    const [locked] = await tx.db.select().from(batches).where(eq(batches.id, batch.id)).for("update");
    if (!locked || locked.state !== batch.state) return { state: locked?.state ?? batch.state, more: false };
    const [left] = rowsOf<{ open: number; waiting: number }>(
      await tx.db.execute(sql`select count(*) filter (where ${batchRows.state} in ${open})::int as open,
          count(*) filter (where ${batchRows.state} = 'needs_decision')::int as waiting
          from ${batchRows} where ${batchRows.batchId} = ${batch.id}`),
    );
    if (Number(left?.open ?? 0) > 0) return { state: locked.state, more: true };
    if (batch.state === "purchasing" && Number(left?.waiting ?? 0) > 0) return { state: locked.state, more: false };
    const now = new Date();
    if (batch.state === "validating") {
      const summary = await summarize(tx.db, batch.id);
      const invalid = (await rowCounts(tx.db, batch.id)).counts.failed;
      await tx.db
        .update(batches)
        .set({ state: "ready", summary, invalidCount: invalid, updatedAt: now })
        .where(eq(batches.id, batch.id));
      return { state: "ready" as const, more: false };
    }
    const tally = await rowCounts(tx.db, batch.id);
    const state = tally.counts.failed > 0 ? "completed_with_errors" : "completed";
    const [row] = await tx.db
      .update(batches)
      .set({ state, finishedAt: now, updatedAt: now })
      .where(eq(batches.id, batch.id))
      .returning();
    await recordEvents(tx.db, [
      {
        orgId: batch.orgId,
        type: state === "completed" ? "batch.completed" : "batch.completed_with_errors",
        resourceId: batch.id,
        testMode: locked.testMode,
        data: presentBatch(row!, tally),
      },
    ]);
    await recordAudit(tx, {
      action: "batch.completed",
      resourceId: batch.id,
      summary: { state, purchased: tally.counts.purchased, failed: tally.counts.failed, held: tally.held },
    });
    return { state, more: false };
  });
}

/** The dry run's totals: per currency, and rows and price per carrier and service (rows needing a decision left out). */
export async function summarize(db: SystemContext["db"], batchId: string) {
  const rows = rowsOf<{
    carrier_id: string;
    carrier_name: string;
    service: string;
    currency: string;
    count: number;
    amount: string;
  }>(
    await db.execute(sql`
    select ${batchRows.rate}->>'carrierId' as carrier_id, ${batchRows.rate}->>'carrierName' as carrier_name,
           ${batchRows.rate}->>'service' as service, ${batchRows.rate}->>'currency' as currency,
           count(*)::int as count, sum((${batchRows.rate}->>'totalCharge')::numeric)::text as amount
    from ${batchRows}
    where ${batchRows.batchId} = ${batchId} and ${batchRows.state} = 'rated'
    group by 1, 2, 3, 4 order by 1, 3`),
  );
  const services = [...rows].map((r) => ({ ...r, count: Number(r.count), amount: Number(r.amount) }));
  const totals = new Map<string, number>();
  for (const s of services) totals.set(s.currency, Math.round(((totals.get(s.currency) ?? 0) + s.amount) * 100) / 100);
  return { totals: [...totals].map(([currency, amount]) => ({ currency, amount })), services };
}
