import { and, count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as createBatchRoute } from "@/app/v1/batches/route";
import { GET as getBatchRoute } from "@/app/v1/batches/[id]/route";
import { POST as purchaseRoute } from "@/app/v1/batches/[id]/purchase/route";
import { GET as failedCsvRoute } from "@/app/v1/batches/[id]/failed.csv/route";
import { GET as labelsPdfRoute } from "@/app/v1/batches/[id]/labels.pdf/route";
import { GET as packingListRoute } from "@/app/v1/batches/[id]/packing-list.pdf/route";
import { runBatch } from "@/lib/batches/run-batch";
import { getDb } from "@/lib/db/client";
import { batchRows, batches, carrierLedger, events, shipments } from "@/lib/db/schema";
import { pdfLib } from "@/lib/labels/pdf-lib";
import { BROKEN_LINES, batchCsv } from "./batch-csv";
import { addSandbox, usShipper } from "./factories";
import { pdfPageLines } from "./pdf-text";
import { call, makeOrg, systemCtx } from "./helpers";

const shipper = usShipper;

/** POST /v1/batches as a browser's form sends it: the file and the options beside it. */
async function upload(key: string, bytes: Uint8Array, options: Record<string, unknown>, idempotencyKey?: string) {
  const form = new FormData();
  form.set("file", new Blob([Buffer.from(bytes)], { type: "text/csv" }), "orders.csv");
  form.set("options", JSON.stringify(options));
  const req = new Request("http://localhost/v1/batches", {
    method: "POST",
    headers: { Authorization: `Token ${key}`, ...(idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {}) },
    body: form,
  });
  const res = await createBatchRoute(req, { params: Promise.resolve({}) });
  return { status: res.status, body: (await res.json()) as { id: string; state: string; [k: string]: unknown } };
}

/** Works a batch's current phase to its end, as the background runner does. */
async function drain(batchId: string) {
  const ctx = await systemCtx();
  for (let i = 0; i < 50; i++) {
    const round = await runBatch({ ctx, batchId, maxDurationMs: 600_000 });
    if (!round.more) return round;
  }
  throw new Error("the batch did not settle");
}

describe("a 1 000-row CSV with 7 broken rows (issue 33)", () => {
  it(
    "lists the 7 with line and column, buys the 993 once each, and prints them in CSV order",
    { timeout: 600_000 },
    async () => {
      const { key, orgId } = await makeOrg();
      const sandbox = await addSandbox(key, "batch-sbx", { batch_calls_per_second: 1000 });
      const created = await upload(key, batchCsv(1000), {
        shipper,
        mapping: { reference: "order_number", "recipient.person_name": "name" },
        rate_policy: { kind: "cheapest", carrier_id: sandbox.carrier_id },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body).toMatchObject({ state: "validating", row_count: 1000 });
      const id = created.body.id;

      // The dry run: nothing bought, every bad row named.
      expect((await drain(id)).state).toBe("ready");
      const failed = await call(getBatchRoute, "GET", `/v1/batches/${id}`, {
        key,
        params: { id },
        query: { row_state: "failed" },
      });
      expect(failed.status).toBe(200);
      expect(failed.body.counts).toMatchObject({ rated: 993, failed: 7, purchased: 0 });
      const listed = failed.body.rows.results.map(
        (r: { line: number; error: { code: string; column: string | null } }) => ({
          line: r.line,
          code: r.error.code,
          column: r.error.column,
        }),
      );
      expect(listed).toEqual(Object.entries(BROKEN_LINES).map(([line, e]) => ({ line: Number(line), ...e })));
      expect(failed.body.summary.totals).toHaveLength(1);
      expect(failed.body.summary.services.reduce((n: number, s: { count: number }) => n + s.count, 0)).toBe(993);
      const db = await getDb();
      const sold = async () =>
        Number(
          (await db.select({ n: count() }).from(carrierLedger).where(eq(carrierLedger.connectionId, sandbox.id)))[0]!.n,
        );
      expect(await sold()).toBe(0);

      // The purchase, confirmed, then worked: 993 labels, one per row.
      const confirmed = await call(purchaseRoute, "POST", `/v1/batches/${id}/purchase`, {
        key,
        params: { id },
        body: {},
      });
      expect(confirmed.status).toBe(200);
      expect(confirmed.body.state).toBe("purchasing");
      expect((await drain(id)).state).toBe("completed_with_errors");
      expect(await sold()).toBe(993);
      const bought = await db
        .select({ n: count() })
        .from(shipments)
        .where(and(eq(shipments.orgId, orgId), eq(shipments.status, "purchased")));
      expect(Number(bought[0]!.n)).toBe(993);
      const [done] = await db.select().from(events).where(eq(events.resourceId, id));
      expect(done?.type).toBe("batch.completed_with_errors");

      // The failed rows' CSV: line, code, column, then the row as given.
      const csv = await call(failedCsvRoute, "GET", `/v1/batches/${id}/failed.csv`, { key, params: { id } });
      expect(csv.status).toBe(200);
      const lines = String(csv.body).trim().split(/\r?\n/);
      expect(lines).toHaveLength(8);
      expect(lines[1]).toMatch(/^11,postal_code_invalid,postal_code,/);

      // Ten parts of 100 labels; each part's pages are its rows' labels in line order.
      const rows = await db
        .select({ line: batchRows.line, tracking: shipments.trackingNumber })
        .from(batchRows)
        .innerJoin(shipments, eq(shipments.id, batchRows.shipmentId))
        .where(and(eq(batchRows.batchId, id), eq(batchRows.state, "purchased")))
        .orderBy(batchRows.line);
      expect(rows).toHaveLength(993);
      const lib = await pdfLib();
      let pages = 0;
      for (let part = 1; part <= 10; part++) {
        const res = await labelsPdfRoute(
          new Request(`http://localhost/v1/batches/${id}/labels.pdf?part=${part}`, {
            headers: { Authorization: `Token ${key}` },
          }),
          { params: Promise.resolve({ id }) },
        );
        expect(res.status).toBe(200);
        expect(res.headers.get("shipwell-parts")).toBe("10");
        expect(res.headers.get("shipwell-not-included")).toBe("");
        const bytes = new Uint8Array(await res.arrayBuffer());
        const doc = await lib.PDFDocument.load(bytes);
        const expected = rows.slice((part - 1) * 100, part * 100);
        expect(doc.getPageCount()).toBe(expected.length);
        (await pdfPageLines(bytes)).forEach((lines, i) => {
          expect(lines, `part ${part} page ${i + 1}`).toContain(expected[i]!.tracking!);
        });
        pages += doc.getPageCount();
      }
      expect(pages).toBe(993);

      const twoUp = await call(labelsPdfRoute, "GET", `/v1/batches/${id}/labels.pdf`, {
        key,
        params: { id },
        query: { sheet: "letter", part: "10" },
      });
      expect(twoUp.status).toBe(200);
      const packing = await call(packingListRoute, "GET", `/v1/batches/${id}/packing-list.pdf`, {
        key,
        params: { id },
      });
      expect(packing.status).toBe(200);
      expect(packing.headers.get("content-type")).toBe("application/pdf");
    },
  );
});

describe("an upload sent again", () => {
  it("with its Idempotency-Key is the first batch, not a second one of the same orders", async () => {
    const { key, orgId } = await makeOrg();
    const bytes = batchCsv(20);
    const first = await upload(key, bytes, { shipper }, "upload-1");
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const again = await upload(key, bytes, { shipper }, "upload-1");
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    // The same key with another file is another request: refused, nothing stored.
    const other = await upload(key, batchCsv(21), { shipper }, "upload-1");
    expect(other.status).toBe(422);
    const db = await getDb();
    const stored = await db.select({ n: count() }).from(batches).where(eq(batches.orgId, orgId));
    expect(stored[0]!.n).toBe(1);
  });
});
