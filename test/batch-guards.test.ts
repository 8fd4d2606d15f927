import { describe, expect, it } from "vitest";
import Papa from "papaparse";
import { POST as createBatch } from "@/app/v1/batches/route";
import { GET as getBatch } from "@/app/v1/batches/[id]/route";
import { POST as purchase } from "@/app/v1/batches/[id]/purchase/route";
import { POST as cancel } from "@/app/v1/batches/[id]/cancel/route";
import { GET as failedCsv } from "@/app/v1/batches/[id]/failed.csv/route";
import { GET as labelsPdf } from "@/app/v1/batches/[id]/labels.pdf/route";
import { PATCH as patchConnection } from "@/app/v1/connections/[id]/route";
import { activeBatches } from "@/lib/batches/manage-batch";
import { runBatch } from "@/lib/batches/run-batch";
import { getDb } from "@/lib/db/client";
import { batchRows, batches, shipments } from "@/lib/db/schema";
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
    // One call every four seconds: the round's workers wait on the pacer, and the cancel lands while they wait, with
    // time to spare on a loaded machine (at one a second, a CI run beside other work let a second purchase through).
    const sandbox = await addSandbox(key, "slow-sbx", { batch_calls_per_second: 0.25 });
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
    // through at once, the next four seconds later), their shipments stored and not claimed.
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

describe("a cancelled batch's rows left purchasing by a worker that is gone", () => {
  it(
    "a row bought by a worker that died is purchased, counted and printed, not purchasing forever",
    { timeout: 120_000 },
    async () => {
      const { key } = await makeOrg();
      const id = await confirmedBatch(key, 2);
      // A worker claims line 1, buys its label at the row's rate, and its process dies before the row is written.
      const row = await deadWorkerClaims(id, 1);
      expect((await purchaseFor(key, { id: row.shipmentId, rates: [row.rate!] })).status).toBe(200);
      // The clerk cancels the batch before line 2 is bought.
      expect((await call(cancel, "POST", `/v1/batches/${id}/cancel`, { key, params: { id } })).body.state).toBe(
        "cancelled",
      );
      // The runners still find the batch, for that row alone...
      expect(await activeBatches(await getDb())).toContain(id);
      const round = await runBatch({ ctx: await systemCtx(), batchId: id, maxDurationMs: 5_000 });
      expect(round).toMatchObject({ worked: 1, state: "cancelled", more: false });
      expect(await activeBatches(await getDb())).not.toContain(id);
      const got = await call(getBatch, "GET", `/v1/batches/${id}`, { key, params: { id } });
      expect(got.body.state).toBe("cancelled");
      expect(got.body.counts.purchasing ?? 0).toBe(0);
      expect(got.body.counts.purchased).toBe(1);
      // ...and line 2 was not bought: a cancelled batch buys nothing.
      expect(got.body.counts.rated).toBe(1);
      expect((await call(labelsPdf, "GET", `/v1/batches/${id}/labels.pdf`, { key, params: { id } })).status).toBe(200);
    },
  );

  it(
    "settles the others from their shipments without buying: free ones rated, a lost answer failed",
    { timeout: 120_000 },
    async () => {
      const { key } = await makeOrg();
      const id = await confirmedBatch(key, 3);
      const db = await getDb();
      // Line 1: the worker died before its purchase claimed the shipment.
      const free = await deadWorkerClaims(id, 1);
      // Line 2: its purchase lost its answer (the attempt stays on the shipment, the claim has expired).
      const lost = await deadWorkerClaims(id, 2);
      const attempt = {
        started_at: new Date(Date.now() - 600_000).toISOString(),
        settled_by: new Date(Date.now() - 60_000).toISOString(),
        selected_rate_id: lost.rate!.id,
      };
      await db
        .update(shipments)
        .set({ meta: sql`${shipments.meta} || ${JSON.stringify({ purchase_attempt: attempt })}::jsonb` })
        .where(eq(shipments.id, lost.shipmentId));
      // Line 3: a purchase of its shipment still holds its claim.
      const busy = await deadWorkerClaims(id, 3);
      await db
        .update(shipments)
        .set({ pendingOperation: "purchase", pendingUntil: new Date(Date.now() + 120_000) })
        .where(eq(shipments.id, busy.shipmentId));
      expect((await call(cancel, "POST", `/v1/batches/${id}/cancel`, { key, params: { id } })).status).toBe(200);
      expect((await runBatch({ ctx: await systemCtx(), batchId: id, maxDurationMs: 5_000 })).state).toBe("cancelled");
      const rows = await db.select().from(batchRows).where(eq(batchRows.batchId, id)).orderBy(batchRows.line);
      expect(rows.map((r) => [r.state, r.errorCode])).toEqual([
        ["rated", null],
        ["failed", "purchase_outcome_unknown"],
        // Left to its lease: settled once the purchase under way has ended.
        ["purchasing", null],
      ]);
      const stored = await db
        .select({ status: shipments.status })
        .from(shipments)
        .where(eq(shipments.id, free.shipmentId));
      expect(stored[0]!.status).toBe("created");
      const [lostNow] = await db.select().from(shipments).where(eq(shipments.id, lost.shipmentId));
      expect(lostNow!.status).toBe("created");
      expect(JSON.stringify(lostNow!.meta)).toContain("purchase_attempt");
      expect(await activeBatches(db)).not.toContain(id);
    },
  );
});

describe("a row whose lease ran out while its purchase was under way", () => {
  it(
    "is purchased when that purchase ends, though another worker holds it and the batch was cancelled meanwhile",
    { timeout: 120_000 },
    async () => {
      const { key } = await makeOrg();
      const slow = await addSandbox(key, "slow-buyer");
      const stored = await createShipmentFor(key, { carrier_ids: ["slow-buyer"] });
      const created = await call(createBatch, "POST", "/v1/batches", { key, body: { shipment_ids: [stored.id] } });
      const id = created.body.id as string;
      expect((await drain(id)).state).toBe("ready");
      expect((await call(purchase, "POST", `/v1/batches/${id}/purchase`, { key, params: { id } })).status).toBe(200);
      // The carrier takes 1.5 s to sell: the purchase is under way, its claim on the shipment live.
      const config = { latency_ms: 1_500 };
      const patched = await call(patchConnection, "PATCH", `/v1/connections/${slow.id}`, {
        key,
        params: { id: slow.id },
        body: { config },
      });
      expect(patched.status).toBe(200);
      const round = runBatch({ ctx: await systemCtx(), batchId: id, maxDurationMs: 60_000, workers: 1 });
      const db = await getDb();
      for (let waited = 0; ; waited += 20) {
        const [s] = await db
          .select({ pending: shipments.pendingOperation })
          .from(shipments)
          .where(eq(shipments.id, stored.id));
        if (s!.pending === "purchase") break;
        if (waited > 20_000) throw new Error("the purchase never claimed its shipment");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // Its lease ran out meanwhile and another worker took the row over (a claim: attempts + 1); that worker found the
      // shipment's claim live and kept the row. Then the clerk cancels the batch.
      await db
        .update(batchRows)
        .set({ attempts: sql`${batchRows.attempts} + 1`, leaseUntil: new Date(Date.now() + 300_000) })
        .where(eq(batchRows.batchId, id));
      expect((await call(cancel, "POST", `/v1/batches/${id}/cancel`, { key, params: { id } })).status).toBe(200);
      await round;
      const got = await call(getBatch, "GET", `/v1/batches/${id}`, { key, params: { id } });
      expect(got.body.state).toBe("cancelled");
      expect(got.body.counts.purchasing ?? 0).toBe(0);
      expect(got.body.counts.purchased).toBe(1);
    },
  );
});

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

describe("the runners' turns", () => {
  it(
    "lists the active batch worked least recently first, one never worked before any",
    { timeout: 120_000 },
    async () => {
      const { key } = await makeOrg();
      const older = await confirmedBatch(key, 1);
      const newer = await confirmedBatch(key, 1);
      const db = await getDb();
      // The older one has just had a round (it was worked last); the newer one never.
      await db.update(batches).set({ lastWorkedAt: new Date() }).where(eq(batches.id, older));
      await db.update(batches).set({ lastWorkedAt: null }).where(eq(batches.id, newer));
      let listed = await activeBatches(db);
      expect(listed.indexOf(newer)).toBeLessThan(listed.indexOf(older));
      // A round of the newer one puts it behind the older one.
      await runBatch({ ctx: await systemCtx(), batchId: newer, maxDurationMs: 1, maxRows: 0 });
      listed = await activeBatches(db);
      expect(listed.indexOf(older)).toBeGreaterThanOrEqual(0);
      expect(listed.indexOf(older)).toBeLessThan(listed.indexOf(newer));
    },
  );
});
