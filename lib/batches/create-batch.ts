import "server-only";
import { and, eq, inArray, sql } from "drizzle-orm";
import { recordAudit } from "@/lib/audit/record";
import { withTransaction, type DomainContext } from "@/lib/context";
import { batchRows, batches, labels, shipments } from "@/lib/db/schema";
import { newId } from "@/lib/db/ids";
import type { DbOrTx } from "@/lib/db/tx";
import { DomainError, ValidationError } from "@/lib/errors";
import { shipFromBook } from "@/lib/addresses/ship-from";
import { selectConnections } from "@/lib/connections/select-connections";
import { MAX_BATCH_ROWS, type Batch, type BatchCreate } from "@/lib/schemas/batch";
import { rawInputProblems } from "@/lib/validation";
import { presentBatch, rowCounts } from "./present-batch";
import { CsvFileError, readCsv } from "./read-csv";
import { resolveMapping, rowToShipment } from "./row-input";

type NewRow = typeof batchRows.$inferInsert;

/**
 * POST /v1/batches: reads the rows (a CSV file, or stored shipments by id) and stores them with the batch, which
 * starts `validating`: the dry run (run-batch.ts) rates each good row, in the background. A row the file or the
 * schema already refuses is stored `failed` with its line, column and reason; bad rows never refuse the batch.
 */
export async function createBatch({
  ctx,
  input,
  file,
}: {
  ctx: DomainContext;
  input: BatchCreate;
  file: { bytes: Uint8Array; filename: string | null } | null;
}): Promise<Batch> {
  if (input.kind === "print") return createPrintRun(ctx, input);
  const filename = uploadedName(file?.filename) ?? input.filename;
  const id = newId("batch");
  const orgId = ctx.org.id;
  let rows: NewRow[];
  let mapping: Record<string, string> = {};
  let source: "csv" | "shipments";
  let shipper = input.shipper;
  let testMode: boolean;
  if (input.shipment_ids && !file) {
    source = "shipments";
    const ids = [...new Set(input.shipment_ids)];
    const found = await ctx.db
      .select({ id: shipments.id, testMode: shipments.testMode })
      .from(shipments)
      .where(and(eq(shipments.orgId, orgId), inArray(shipments.id, ids)));
    const known = new Set(found.map((f) => f.id));
    testMode = found.every((f) => f.testMode);
    const missing = ids.filter((s) => !known.has(s));
    if (missing.length > 0) {
      throw new ValidationError(`no such shipment: ${missing.slice(0, 5).join(", ")}`, "shipment_ids");
    }
    rows = ids.map((shipmentId, i) => ({
      batchId: id,
      line: i + 1,
      orgId,
      input: { shipment_id: shipmentId },
      request: null,
      state: "queued" as const,
      shipmentId,
      idempotencyKey: `${id}:${i + 1}`,
    }));
  } else {
    source = "csv";
    if (!file && input.csv === null) {
      throw new ValidationError("give the rows: a CSV file, `csv`, or `shipment_ids`", "file");
    }
    shipper ??= await shipFromBook(ctx.db, orgId, input.shipper_address_id, "shipper_address_id");
    if (!shipper) {
      throw new ValidationError(
        "is required for CSV rows: the address every parcel ships from (or `shipper_address_id`, or a default ship-from in the address book)",
        "shipper",
      );
    }
    const read = (() => {
      try {
        return readCsv(file ? file.bytes : input.csv!, { maxRecords: MAX_BATCH_ROWS });
      } catch (err) {
        if (err instanceof CsvFileError) throw new ValidationError(err.message, "file");
        throw err;
      }
    })();
    if (read.records.length === 0) throw new ValidationError("has no rows below its header", "file");
    // Reading stopped past the limit: how many more rows there are is not known.
    if (read.more)
      throw new ValidationError(`has more than ${MAX_BATCH_ROWS} rows; a batch takes up to ${MAX_BATCH_ROWS}`, "file");
    const resolved = resolveMapping(read.headers, input.mapping);
    if (resolved.problems.length > 0) {
      throw new ValidationError(resolved.problems.map((p) => ({ field: "mapping", message: p.message })));
    }
    mapping = resolved.columns;
    const defaults = { shipper, label_type: input.label_type, options: input.options };
    const references = new Map<string, number>();
    const refHeader = resolved.columns.reference;
    rows = read.records.map((record) => {
      const base = {
        batchId: id,
        line: record.line,
        orgId,
        input: record.values,
        shipmentId: newId("shipment"),
        idempotencyKey: `${id}:${record.line}`,
      };
      const fail = (p: { code: string; column: string | null; message: string }): NewRow => ({
        ...base,
        request: null,
        state: "failed",
        errorCode: p.code,
        errorColumn: p.column,
        errorMessage: p.message,
      });
      if (record.problem) return fail(record.problem);
      const reference = refHeader ? record.values[refHeader]?.trim() : undefined;
      if (reference) {
        const first = references.get(reference);
        if (first !== undefined) {
          return fail({
            code: "duplicate_reference",
            column: refHeader!,
            message: `repeats the order number of line ${first}`,
          });
        }
        references.set(reference, record.line);
      }
      const shaped = rowToShipment(record.values, resolved.columns, defaults, input.rate_policy);
      if (!shaped.ok) return fail(shaped.problems[0]!);
      return { ...base, request: shaped.input as unknown as Record<string, unknown>, state: "queued" };
    });
    testMode = await connectionsMode(ctx, rows, input.rate_policy);
  }

  return withTransaction(ctx, async (tx) => {
    const [row] = await tx.db
      .insert(batches)
      .values({
        id,
        orgId,
        state: "validating",
        source,
        filename,
        ratePolicy: input.rate_policy,
        defaults: { shipper, label_type: input.label_type, options: input.options },
        mapping,
        rowCount: rows.length,
        testMode,
      })
      .returning();
    await insertRows(tx.db, rows);
    await recordAudit(tx, {
      action: "batch.created",
      resourceId: id,
      summary: { source, rows: rows.length, invalid: rows.filter((r) => r.state === "failed").length },
    });
    return presentBatch(row!, await rowCounts(tx.db, id));
  });
}

/**
 * The name a multipart upload gave its file, kept as the options' `filename` is (trimmed, at most 200 characters; a
 * longer one is cut, not refused: it only labels the batch). It is the client's text like any other: a NUL, which
 * Postgres cannot store, or a lone surrogate is a 400.
 */
function uploadedName(name: string | null | undefined): string | null {
  if (!name) return null;
  const [problem] = rawInputProblems(name);
  if (problem) throw new ValidationError(`name ${problem.message}`, "file");
  return Array.from(name.trim()).slice(0, 200).join("") || null;
}

/** About how many characters of JSON one statement of insertRows carries. */
const INSERT_SLICE_CHARS = 4 * 1024 * 1024;

/**
 * A batch's rows in few statements: each one JSON parameter that jsonb_to_recordset reads. drizzle's insert built a
 * parameter per column per row (110 000 for 10 000 rows, in slices under Postgres's 65 535), about a second of a
 * 10 000-row upload's storing (bench:batches). The JSON is cut in slices of about 4 MiB: a file's rows are stored
 * by its header's names, and a wide file of 10 000 rows makes 100 MB of it, too much for one string and one
 * parameter (a RangeError past 512 MB, the memory of each copy before that). JSON null is SQL NULL here.
 */
async function insertRows(db: DbOrTx, rows: NewRow[]): Promise<void> {
  let slice: string[] = [];
  let chars = 0;
  const flush = async () => {
    if (slice.length === 0) return;
    const json = `[${slice.join(",")}]`;
    slice = [];
    chars = 0;
    await db.execute(sql`
      insert into ${batchRows} (batch_id, line, org_id, input, request, state, error_code, error_column,
        error_message, shipment_id, idempotency_key)
      select batch_id, line, org_id, input, request, state, error_code, error_column, error_message, shipment_id,
        idempotency_key
      from jsonb_to_recordset(${json}::jsonb) as r(batch_id text, line integer, org_id text,
        input jsonb, request jsonb, state text, error_code text, error_column text, error_message text,
        shipment_id text, idempotency_key text)
    `);
  };
  for (const r of rows) {
    const record = JSON.stringify({
      batch_id: r.batchId,
      line: r.line,
      org_id: r.orgId,
      input: r.input,
      request: r.request ?? null,
      state: r.state,
      error_code: r.errorCode ?? null,
      error_column: r.errorColumn ?? null,
      error_message: r.errorMessage ?? null,
      shipment_id: r.shipmentId,
      idempotency_key: r.idempotencyKey,
    });
    slice.push(record);
    chars += record.length;
    if (chars >= INSERT_SLICE_CHARS) await flush();
  }
  await flush();
}

/**
 * POST /v1/batches with `kind: "print"`: shipments already bought, gathered as one print run so their labels come as
 * the batch's merged files (print-batch.ts) in the order given. Stored completed with every row purchased, so the
 * runner never works it, and no act (confirm, retry, decide) applies to it: nothing on this path can buy a label. A
 * shipment without a label to print (a draft, a voided label) refuses the request, named; it sends no webhook event
 * (nothing was bought).
 */
async function createPrintRun(ctx: DomainContext, input: BatchCreate): Promise<Batch> {
  const id = newId("batch");
  const orgId = ctx.org.id;
  const ids = [...new Set(input.shipment_ids ?? [])];
  const found = await ctx.db
    .select({
      id: shipments.id,
      status: shipments.status,
      testMode: shipments.testMode,
      reference: shipments.reference,
    })
    .from(shipments)
    .where(and(eq(shipments.orgId, orgId), inArray(shipments.id, ids)));
  const byId = new Map(found.map((f) => [f.id, f]));
  const missing = ids.filter((s) => !byId.has(s));
  if (missing.length > 0) {
    throw new ValidationError(`no such shipment: ${missing.slice(0, 5).join(", ")}`, "shipment_ids");
  }
  const withLabel = new Set(
    (
      await ctx.db
        .select({ shipmentId: labels.shipmentId })
        .from(labels)
        .where(and(eq(labels.orgId, orgId), inArray(labels.shipmentId, ids)))
    ).map((l) => l.shipmentId),
  );
  const unprintable = ids.filter((s) => !withLabel.has(s) || byId.get(s)!.status === "cancelled");
  if (unprintable.length > 0) {
    const named = unprintable.slice(0, 5).map((s) => `${s} (${byId.get(s)!.status})`);
    throw new ValidationError(`has no label to print: ${named.join(", ")}`, "shipment_ids");
  }
  const now = new Date();
  return withTransaction(ctx, async (tx) => {
    const [row] = await tx.db
      .insert(batches)
      .values({
        id,
        orgId,
        state: "completed",
        source: "shipments",
        kind: "print",
        filename: input.filename,
        ratePolicy: input.rate_policy,
        defaults: {},
        // Each row keeps its shipment's reference, shown (and on the packing list) as a CSV row's order number is.
        mapping: { reference: "reference" },
        rowCount: ids.length,
        testMode: found.every((f) => f.testMode),
        finishedAt: now,
      })
      .returning();
    await insertRows(
      tx.db,
      ids.map((shipmentId, i) => ({
        batchId: id,
        line: i + 1,
        orgId,
        input: { shipment_id: shipmentId, reference: byId.get(shipmentId)!.reference ?? "" },
        request: null,
        state: "purchased" as const,
        shipmentId,
        idempotencyKey: `${id}:${i + 1}`,
      })),
    );
    await recordAudit(tx, {
      action: "batch.created",
      resourceId: id,
      summary: { source: "shipments", kind: "print", rows: ids.length, invalid: 0 },
    });
    return presentBatch(row!, await rowCounts(tx.db, id));
  });
}

/**
 * The mode of the connections a batch's CSV rows will be rated and bought by (the ones they name, else every one
 * able to rate), as a shipment rated by them records it: test unless one of them is live. Stored on the batch, so
 * its webhook events say the right mode even when no row was ever rated.
 */
async function connectionsMode(
  ctx: DomainContext,
  rows: NewRow[],
  policy: BatchCreate["rate_policy"],
): Promise<boolean> {
  const named = new Set<string>();
  let unnamed = false;
  for (const r of rows) {
    const ids = (r.request as { carrier_ids?: string[] } | null)?.carrier_ids;
    if (!ids) continue;
    if (ids.length === 0) unnamed = true;
    for (const i of ids) named.add(i);
  }
  // No row good enough to be rated: the connections the policy names, else every one.
  if (!unnamed && named.size === 0) {
    if (policy.carrier_id) named.add(policy.carrier_id);
    else unnamed = true;
  }
  try {
    const usable = await selectConnections({ ctx, carrierIds: undefined, capability: "rates" });
    // A name no connection answers to fails its row's dry run: the rest decide.
    const asked = unnamed ? usable : usable.filter((c) => named.has(c.carrierId) || named.has(c.id));
    return asked.every((c) => c.testMode);
  } catch (err) {
    // No connection to rate with: every row fails its dry run; nothing will be live.
    if (err instanceof DomainError) return true;
    throw err;
  }
}
