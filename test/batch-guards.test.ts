import { describe, expect, it } from "vitest";
import Papa from "papaparse";
import { POST as createBatch } from "@/app/v1/batches/route";
import { GET as getBatch } from "@/app/v1/batches/[id]/route";
import { POST as purchase } from "@/app/v1/batches/[id]/purchase/route";
import { POST as cancel } from "@/app/v1/batches/[id]/cancel/route";
import { GET as failedCsv } from "@/app/v1/batches/[id]/failed.csv/route";
import { runBatch } from "@/lib/batches/run-batch";
import { getDb } from "@/lib/db/client";
import { batchRows } from "@/lib/db/schema";
import { and, eq, sql } from "drizzle-orm";
import { addSandbox, createShipmentFor, purchaseFor, usShipper } from "./factories";
import { call, makeOrg, systemCtx } from "./helpers";

/** Works a batch's current phase to its end, as the background runner does. */
async function drain(batchId: string) {
  const ctx = await systemCtx();
  for (let i = 0; i < 20; i++) {
    const round = await runBatch({ ctx, batchId, maxDurationMs: 60_000 });
    if (!round.more) return round;
  }
  throw new Error("the batch did not settle");
}

const shipper = usShipper;

describe("a batch's guards (review of issue 33)", () => {
  it("stops buying when cancelled during a round that read it as purchasing", { timeout: 120_000 }, async () => {
    const { key } = await makeOrg();
    // One call a second: the round's workers wait on the pacer, and the cancel lands while they wait.
    const sandbox = await addSandbox(key, "slow-sbx", { batch_calls_per_second: 1 });
    const csv = [
      "order_number,name,address_line1,city,state_code,postal_code,country_code,weight,service",
      ...[0, 1, 2, 3].map((i) => `SO-${i},Recipient ${i},${i + 1} Elm Street,Austin,TX,78701,US,2,`),
    ].join("\n");
    const created = await call(createBatch, "POST", "/v1/batches", {
      key,
      body: {
        csv,
        shipper,
        mapping: { reference: "order_number", "recipient.person_name": "name" },
        rate_policy: { kind: "cheapest", carrier_id: sandbox.carrier_id },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    expect((await drain(id)).state).toBe("ready");
    expect((await call(purchase, "POST", `/v1/batches/${id}/purchase`, { key, params: { id } })).status).toBe(200);
    const { getDb } = await import("@/lib/db/client");
    const { batchRows, shipments } = await import("@/lib/db/schema");
    const { eq, inArray } = await import("drizzle-orm");
    const db = await getDb();
    const rowShipments = db.select({ id: batchRows.shipmentId }).from(batchRows).where(eq(batchRows.batchId, id));
    const round = runBatch({ ctx: await systemCtx(), batchId: id, maxDurationMs: 60_000, workers: 4 });
    // The cancel lands once the first row is bought and two more wait for their slots (the pacer lets the first
    // through at once, the next a second later), their shipments stored and not claimed.
    for (let waited = 0; ; waited += 20) {
      const stored = await db
        .select({ status: shipments.status })
        .from(shipments)
        .where(inArray(shipments.id, rowShipments));
      const created = stored.filter((r) => r.status === "created").length;
      if (created >= 2 && stored.length - created >= 1) break;
      if (waited > 20_000) throw new Error("no row came to wait for its slot");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await call(cancel, "POST", `/v1/batches/${id}/cancel`, { key, params: { id } })).status).toBe(200);
    await round;
    const batch = await call(getBatch, "GET", `/v1/batches/${id}`, { key, params: { id } });
    // At most the one purchase the pacer let through before the cancel; the rows still waiting were given back.
    expect(batch.body.state).toBe("cancelled");
    expect(batch.body.counts.purchased ?? 0).toBeLessThanOrEqual(1);
    expect(batch.body.counts.rated).toBeGreaterThanOrEqual(3);
    // The rows stopped once their slot had come had not claimed their shipments: each is free to buy, no attempt kept.
    const stored = await db
      .select({ status: shipments.status, pending: shipments.pendingOperation, meta: shipments.meta })
      .from(shipments)
      .where(inArray(shipments.id, rowShipments));
    const unbought = stored.filter((s) => s.status === "created");
    expect(unbought.length).toBeGreaterThanOrEqual(2);
    for (const s of unbought) {
      expect(s.pending).toBeNull();
      expect(JSON.stringify(s.meta)).not.toContain("purchase_attempt");
    }
  });

  it("writes a failed row's cells so no spreadsheet reads a formula in them", { timeout: 120_000 }, async () => {
    const { key } = await makeOrg();
    await addSandbox(key, "guards-sbx");
    const formulas = ["=HYPERLINK(1)\nmore", " =2+2", "＝3", "@SUM(A1)", "+1", "-1"];
    const csv = [
      "order_number,name,address_line1,city,state_code,postal_code,country_code,weight,service",
      ...formulas.map((f, i) => `SO-${i},"${f}",1 Elm Street,Austin,TX,ABCDE,US,2,`),
    ].join("\n");
    const created = await call(createBatch, "POST", "/v1/batches", {
      key,
      body: { csv, shipper, mapping: { reference: "order_number", "recipient.person_name": "name" } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    await drain(id);
    const res = await call(failedCsv, "GET", `/v1/batches/${id}/failed.csv`, { key, params: { id } });
    expect(res.status).toBe(200);
    const rows = Papa.parse<Record<string, string>>(String(res.body), { header: true, skipEmptyLines: true }).data;
    expect(rows.map((r) => r.name)).toEqual(formulas.map((f) => `'${f}`));
  });
});

/** A batch of stored shipments, its dry run done and its purchase confirmed, nothing bought yet. */
async function confirmedBatch(key: string, count: number) {
  const stored = [];
  for (let i = 0; i < count; i++) stored.push(await createShipmentFor(key));
  const created = await call(createBatch, "POST", "/v1/batches", {
    key,
    body: { shipment_ids: stored.map((s) => s.id) },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as string;
  expect((await drain(id)).state).toBe("ready");
  expect((await call(purchase, "POST", `/v1/batches/${id}/purchase`, { key, params: { id } })).status).toBe(200);
  return id;
}

/** A worker's claim of a row (as claimRows makes it) whose lease has run out: its process died. */
async function deadWorkerClaims(batchId: string, line: number) {
  const db = await getDb();
  const [row] = await db
    .update(batchRows)
    .set({ state: "purchasing", attempts: sql`${batchRows.attempts} + 1`, leaseUntil: new Date(Date.now() - 1000) })
    .where(and(eq(batchRows.batchId, batchId), eq(batchRows.line, line)))
    .returning();
  return row!;
}

describe("a batch's shipment bought outside the batch", () => {
  it(
    "is failed as bought outside this batch, not reported as its purchase at the dry run's rate",
    { timeout: 120_000 },
    async () => {
      const { key } = await makeOrg();
      const s = await createShipmentFor(key);
      expect(s.rates.length).toBeGreaterThan(1);
      const created = await call(createBatch, "POST", "/v1/batches", {
        key,
        body: { shipment_ids: [s.id], rate_policy: { kind: "cheapest" } },
      });
      const id = created.body.id as string;
      expect((await drain(id)).state).toBe("ready");
      const picked = (await call(getBatch, "GET", `/v1/batches/${id}`, { key, params: { id } })).body.rows.results[0];
      // The clerk buys it by hand meanwhile, at another rate, then confirms the batch.
      const other = s.rates.find((r) => r.service !== picked.rate.service)!;
      expect((await purchaseFor(key, { id: s.id, rates: [other] })).status).toBe(200);
      expect((await call(purchase, "POST", `/v1/batches/${id}/purchase`, { key, params: { id } })).status).toBe(200);
      expect((await drain(id)).state).toBe("completed_with_errors");
      const got = await call(getBatch, "GET", `/v1/batches/${id}`, { key, params: { id } });
      expect(got.body.counts.purchased ?? 0).toBe(0);
      expect(got.body.rows.results[0]).toMatchObject({
        state: "failed",
        error: {
          code: "state_conflict",
          column: "shipment_id",
          message: expect.stringContaining("bought outside this batch"),
        },
      });
    },
  );

  it(
    "bought by the batch's own earlier try, at the row's rate, is the batch's purchase",
    { timeout: 120_000 },
    async () => {
      const { key } = await makeOrg();
      const id = await confirmedBatch(key, 1);
      // The try bought the label and lost the row's write; the next claim finds the shipment bought at the row's rate.
      const row = await deadWorkerClaims(id, 1);
      expect((await purchaseFor(key, { id: row.shipmentId, rates: [row.rate!] })).status).toBe(200);
      expect((await drain(id)).state).toBe("completed");
      const got = await call(getBatch, "GET", `/v1/batches/${id}`, { key, params: { id } });
      expect(got.body.counts.purchased).toBe(1);
    },
  );
});
