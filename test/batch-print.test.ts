import { count, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as listBatches, POST as createBatch } from "@/app/v1/batches/route";
import { GET as getBatch } from "@/app/v1/batches/[id]/route";
import { POST as purchase } from "@/app/v1/batches/[id]/purchase/route";
import { POST as retry } from "@/app/v1/batches/[id]/retry/route";
import { POST as cancel } from "@/app/v1/batches/[id]/cancel/route";
import { POST as cancelShipment } from "@/app/v1/shipments/[id]/cancel/route";
import { GET as labelsPdf } from "@/app/v1/batches/[id]/labels.pdf/route";
import { GET as labelsZpl } from "@/app/v1/batches/[id]/labels.zpl/route";
import { runBatch } from "@/lib/batches/run-batch";
import { getDb } from "@/lib/db/client";
import { carrierLedger, events, shipments } from "@/lib/db/schema";
import { createShipmentFor, purchaseFor } from "./factories";
import { call, makeOrg, systemCtx } from "./helpers";
import { pdfPageLines } from "./pdf-text";

async function bought(key: string, extra: Record<string, unknown> = {}) {
  const shipment = await createShipmentFor(key, extra);
  const res = await purchaseFor(key, shipment);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return shipment.id;
}

describe("a print run from selected shipments (issue 33)", () => {
  it(
    "merges bought labels in the order chosen, buys nothing, and is another organization's to find never",
    { timeout: 120_000 },
    async () => {
      const a = await makeOrg("A");
      const b = await makeOrg("B");
      const first = await bought(a.key);
      const zpl = await bought(a.key, { label_type: "ZPL" });
      const third = await bought(a.key);
      const db = await getDb();
      const sales = async () => Number((await db.select({ n: count() }).from(carrierLedger))[0]!.n);
      const soldBefore = await sales();
      const chosen = [third, zpl, first];

      const created = await call(createBatch, "POST", "/v1/batches", {
        key: a.key,
        body: { kind: "print", shipment_ids: chosen },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body).toMatchObject({
        kind: "print",
        source: "shipments",
        state: "completed",
        row_count: 3,
        counts: { purchased: 3, rated: 0, queued: 0 },
        confirmed_at: null,
      });
      const id = created.body.id as string;
      // Up to 1 000 rows a page, as docs/api.md says (the dashboard's "approve all" reads them so).
      const listed = await call(getBatch, "GET", `/v1/batches/${id}`, {
        key: a.key,
        params: { id },
        query: { limit: "1000" },
      });
      expect(listed.status, JSON.stringify(listed.body)).toBe(200);
      const tooMany = await call(getBatch, "GET", `/v1/batches/${id}`, {
        key: a.key,
        params: { id },
        query: { limit: "1001" },
      });
      expect(tooMany.status).toBe(400);
      expect(
        listed.body.rows.results.map((r: { shipment_id: string; state: string }) => [r.shipment_id, r.state]),
      ).toEqual(chosen.map((s) => [s, "purchased"]));
      // The runner finds nothing to do, and no act can start a purchase.
      expect(await runBatch({ ctx: await systemCtx(), batchId: id, maxDurationMs: 5_000 })).toMatchObject({
        worked: 0,
        more: false,
        state: "completed",
      });
      const asA = { key: a.key, params: { id } };
      expect((await call(purchase, "POST", `/v1/batches/${id}/purchase`, { ...asA, body: {} })).status).toBe(409);
      expect((await call(retry, "POST", `/v1/batches/${id}/retry`, asA)).status).toBe(409);
      expect((await call(cancel, "POST", `/v1/batches/${id}/cancel`, asA)).status).toBe(409);
      expect(await sales()).toBe(soldBefore);
      expect(await db.select().from(events).where(eq(events.resourceId, id))).toEqual([]);

      // The PDF: the two PDF labels in the order chosen; the ZPL one listed as not included, with why.
      const pdf = await labelsPdf(
        new Request(`http://localhost/v1/batches/${id}/labels.pdf`, { headers: { Authorization: `Token ${a.key}` } }),
        { params: Promise.resolve({ id }) },
      );
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get("shipwell-not-included")).toMatch(/^2: a ZPL label cannot be drawn in a PDF/);
      const bytes = new Uint8Array(await pdf.arrayBuffer());
      const tracking = async (shipmentId: string) =>
        (await db.select({ t: shipments.trackingNumber }).from(shipments).where(eq(shipments.id, shipmentId)))[0]!.t!;
      const pages = await pdfPageLines(bytes);
      expect(pages).toHaveLength(2);
      expect(pages[0]!.join("\n")).toContain(await tracking(third));
      expect(pages[1]!.join("\n")).toContain(await tracking(first));
      const zplFile = await call(labelsZpl, "GET", `/v1/batches/${id}/labels.zpl`, asA);
      expect(zplFile.status).toBe(200);
      expect(String(zplFile.body)).toMatch(/^\^XA/);
      expect(zplFile.headers.get("shipwell-not-included")).toMatch(/^1: a PDF label is not ZPL.*; 3: /);

      // A draft (no label) is refused by name; nothing is stored.
      const draft = (await createShipmentFor(a.key)).id;
      const refused = await call(createBatch, "POST", "/v1/batches", {
        key: a.key,
        body: { kind: "print", shipment_ids: [first, draft] },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.errors[0]).toMatchObject({
        field: "shipment_ids",
        message: `has no label to print: ${draft} (created)`,
      });
      const noIds = await call(createBatch, "POST", "/v1/batches", { key: a.key, body: { kind: "print" } });
      expect(noIds.status).toBe(400);
      expect(noIds.body.errors[0].field).toBe("shipment_ids");
      expect((await call(listBatches, "GET", "/v1/batches", { key: a.key })).body.count).toBe(1);

      // Tenancy: B neither prints A's shipments nor finds A's print run.
      const stolen = await call(createBatch, "POST", "/v1/batches", {
        key: b.key,
        body: { kind: "print", shipment_ids: [first] },
      });
      expect(stolen.status).toBe(400);
      expect(stolen.body.errors[0]).toMatchObject({ field: "shipment_ids", message: `no such shipment: ${first}` });
      const asB = { key: b.key, params: { id } };
      for (const res of [
        await call(getBatch, "GET", `/v1/batches/${id}`, asB),
        await call(labelsPdf, "GET", `/v1/batches/${id}/labels.pdf`, asB),
        await call(labelsZpl, "GET", `/v1/batches/${id}/labels.zpl`, asB),
      ]) {
        expect(res.status).toBe(404);
      }
      expect((await call(listBatches, "GET", "/v1/batches", { key: b.key })).body.count).toBe(0);
    },
  );

  it(
    "withholds a label voided after the run was made, as the shipment's own label is, and says so per line",
    { timeout: 120_000 },
    async () => {
      const { key } = await makeOrg();
      const voided = await bought(key, { label_type: "ZPL" });
      const unsettled = await bought(key);
      const kept = await bought(key);
      const zplKept = await bought(key, { label_type: "ZPL" });
      const created = await call(createBatch, "POST", "/v1/batches", {
        key,
        body: { kind: "print", shipment_ids: [voided, unsettled, kept, zplKept] },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.id as string;
      // A clerk voids one label; the void of another lost the carrier's answer (docs/api.md, "When an answer is lost").
      const cancelled = await call(cancelShipment, "POST", `/v1/shipments/${voided}/cancel`, {
        key,
        params: { id: voided },
      });
      expect(cancelled.body.status).toBe("cancelled");
      const attempt = {
        started_at: "2026-01-01 00:00:00.000000+00:00",
        settled_by: "2026-01-01 00:05:00.000000+00:00",
      };
      await (
        await getDb()
      )
        .update(shipments)
        .set({ meta: sql`${shipments.meta} || ${JSON.stringify({ cancel_attempt: attempt })}::jsonb` })
        .where(eq(shipments.id, unsettled));

      const asKey = { key, params: { id } };
      const pdf = await labelsPdf(
        new Request(`http://localhost/v1/batches/${id}/labels.pdf`, { headers: { Authorization: `Token ${key}` } }),
        { params: Promise.resolve({ id }) },
      );
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get("shipwell-not-included")).toBe(
        "1: the shipment is cancelled and its label voided; " +
          "2: a cancellation's outcome is not recorded: the label may be voided; " +
          "4: a ZPL label cannot be drawn in a PDF; download labels.zpl",
      );
      expect(await pdfPageLines(new Uint8Array(await pdf.arrayBuffer()))).toHaveLength(1);
      const zpl = await call(labelsZpl, "GET", `/v1/batches/${id}/labels.zpl`, asKey);
      expect(zpl.status).toBe(200);
      // Only the ZPL label still on offer: one label, not the voided one's.
      expect(String(zpl.body).match(/\^XA/g)).toHaveLength(1);
      expect(zpl.headers.get("shipwell-not-included")).toMatch(
        /^1: the shipment is cancelled and its label voided; 2: /,
      );
      // The rows keep their places: the run still has four bought rows in one part.
      const got = await call(getBatch, "GET", `/v1/batches/${id}`, asKey);
      expect(got.body.counts.purchased).toBe(4);
    },
  );
});
