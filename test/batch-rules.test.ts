import { and, count, eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as createBatch } from "@/app/v1/batches/route";
import { GET as getBatch } from "@/app/v1/batches/[id]/route";
import { POST as purchase } from "@/app/v1/batches/[id]/purchase/route";
import { POST as decisions } from "@/app/v1/batches/[id]/decisions/route";
import { activeBatches } from "@/lib/batches/manage-batch";
import { runBatch } from "@/lib/batches/run-batch";
import { getDb } from "@/lib/db/client";
import { carrierLedger, events, shipments } from "@/lib/db/schema";
import { addSandbox, usShipper } from "./factories";
import { call, makeOrg, systemCtx } from "./helpers";

const shipper = usShipper;
const HEADER = "order_number,name,address_line1,city,state_code,postal_code,country_code,weight";
const mapping = { reference: "order_number", "recipient.person_name": "name" };

async function drain(batchId: string) {
  const ctx = await systemCtx();
  for (let i = 0; i < 20; i++) {
    const round = await runBatch({ ctx, batchId, maxDurationMs: 120_000 });
    if (!round.more) return round;
  }
  throw new Error("the batch did not settle");
}

type Row = { line: number; state: string; held: string | null; shipment_id: string | null; rate: { service: string } };

async function rows(key: string, id: string): Promise<Map<number, Row>> {
  const res = await call(getBatch, "GET", `/v1/batches/${id}`, { key, params: { id } });
  return new Map(res.body.rows.results.map((r: Row) => [r.line, r]));
}

describe("a batch's rules, price cap and decisions (issue 33, item 3)", () => {
  it(
    "a capped row waits, is never bought until approved, then is bought by the same path",
    { timeout: 300_000 },
    async () => {
      const { key, orgId } = await makeOrg();
      const sandbox = await addSandbox(key, "rules-sbx", { batch_calls_per_second: 1000 });
      const csv = [
        HEADER,
        "SO-1,Ann,1 Elm Street,Austin,TX,78701,US,2", // light: the fallback's cheapest, under the cap
        "SO-2,Bob,2 Elm Street,Austin,TX,78701,US,30", // heavy: overnight by rule, above the cap
        "SO-3,Cy,3 Elm Street,Austin,WA,78701,US,2", // a Texas ZIP given a Washington state
        "SO-4,Di,4 Elm Street,Austin,TX,78701,US,31", // heavy too: skipped by the clerk
      ].join("\n");
      const created = await call(createBatch, "POST", "/v1/batches", {
        key,
        body: {
          csv,
          shipper,
          mapping,
          rate_policy: {
            kind: "rules",
            rules: [
              {
                weight: { min: 20 },
                pick: { kind: "fixed", carrier_id: sandbox.carrier_id, service: "SBX_OVERNIGHT" },
              },
            ],
            fallback: { kind: "cheapest", carrier_id: sandbox.carrier_id },
            price_cap: { amount: 30, currency: "USD" },
          },
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.rate_policy).toMatchObject({
        kind: "rules",
        rules: [{ weight: { min: 20, max: null, unit: "KG" } }],
      });
      const id = created.body.id as string;

      // The dry run: the ZIP/state mismatch is named by line and column with the address check's words.
      expect((await drain(id)).state).toBe("ready");
      let byLine = await rows(key, id);
      const mismatch = await call(getBatch, "GET", `/v1/batches/${id}`, {
        key,
        params: { id },
        query: { row_state: "failed" },
      });
      expect(mismatch.body.rows.results).toEqual([
        expect.objectContaining({
          line: 4,
          error: expect.objectContaining({
            code: "postal_code_state_mismatch",
            column: "postal_code",
            message: "78701 is not a postal code of US-WA.",
          }),
        }),
      ]);
      expect(byLine.get(2)).toMatchObject({ state: "rated", held: null, rate: { service: "SBX_GROUND" } });
      expect(byLine.get(3)).toMatchObject({
        state: "needs_decision",
        held: "price_cap",
        rate: { service: "SBX_OVERNIGHT" },
      });
      expect(byLine.get(5)).toMatchObject({ state: "needs_decision", held: "price_cap" });

      // Decisions name rows that wait, and rows that exist.
      const decide = (body: unknown) =>
        call(decisions, "POST", `/v1/batches/${id}/decisions`, { key, params: { id }, body });
      expect((await decide({ decision: "approve", lines: [2] })).status).toBe(409);
      const unknown = await decide({ decision: "approve", lines: [99] });
      expect(unknown.status).toBe(400);
      expect(unknown.body.errors[0]).toMatchObject({ field: "lines", message: "no such line: 99" });
      expect((await decide({ decision: "maybe", lines: [3] })).status).toBe(400);
      const skipped = await decide({ decision: "skip", lines: [5] });
      expect(skipped.status, JSON.stringify(skipped.body)).toBe(200);
      expect(skipped.body).toMatchObject({ state: "ready", held: 1, counts: { skipped: 1, needs_decision: 1 } });

      // Confirmed without the held rows: only the row under the cap is bought.
      const db = await getDb();
      const sold = async () =>
        Number(
          (await db.select({ n: count() }).from(carrierLedger).where(eq(carrierLedger.connectionId, sandbox.id)))[0]!.n,
        );
      expect(
        (await call(purchase, "POST", `/v1/batches/${id}/purchase`, { key, params: { id }, body: {} })).status,
      ).toBe(200);
      // The row waiting keeps the batch from completing: no completion, no event, and no round to spin on.
      const waiting = await drain(id);
      expect(waiting).toMatchObject({ state: "purchasing", more: false });
      expect(await activeBatches(db)).not.toContain(id);
      expect(await sold(), JSON.stringify([...(await rows(key, id)).values()])).toBe(1);
      const completions = () =>
        db
          .select({ type: events.type })
          .from(events)
          .where(and(eq(events.resourceId, id), like(events.type, "batch.%")));
      expect(await completions()).toEqual([]);
      byLine = await rows(key, id);
      expect(byLine.get(3)!.state).toBe("needs_decision");
      const heldShipment = byLine.get(3)!.shipment_id!;
      expect(await db.select().from(shipments).where(eq(shipments.id, heldShipment))).toEqual([]);

      // Approved at its price: the row is bought like any other, and then the batch completes, once.
      const approved = await decide({ decision: "approve", lines: [3] });
      expect(approved.status, JSON.stringify(approved.body)).toBe(200);
      expect(approved.body).toMatchObject({ state: "purchasing", held: 0, finished_at: null });
      expect(await activeBatches(db)).toContain(id);
      expect((await drain(id)).state).toBe("completed_with_errors");
      expect(await completions()).toEqual([{ type: "batch.completed_with_errors" }]);
      // A round after the end changes nothing and sends nothing.
      expect((await drain(id)).state).toBe("completed_with_errors");
      expect(await completions()).toHaveLength(1);
      expect(await sold()).toBe(2);
      byLine = await rows(key, id);
      expect(byLine.get(3)).toMatchObject({ state: "purchased", held: null });
      expect(byLine.get(5)!.state).toBe("skipped");
      const [bought] = await db
        .select({ status: shipments.status, service: shipments.service })
        .from(shipments)
        .where(and(eq(shipments.orgId, orgId), eq(shipments.id, heldShipment)));
      expect(bought).toEqual({ status: "purchased", service: "SBX_OVERNIGHT" });
      // A decided row takes no second decision, and a finished batch none at all.
      expect((await decide({ decision: "skip", lines: [3] })).status).toBe(409);
    },
  );

  it(
    "a batch whose every row waits completes when the last is skipped, with one event and nothing bought",
    { timeout: 300_000 },
    async () => {
      const { key } = await makeOrg();
      const sandbox = await addSandbox(key, "skip-sbx", { batch_calls_per_second: 1000 });
      const csv = [HEADER, "SO-1,Ann,1 Elm Street,Austin,TX,78701,US,2", "SO-2,Bob,2 Elm Street,Austin,TX,78701,US,3"];
      const created = await call(createBatch, "POST", "/v1/batches", {
        key,
        body: {
          csv: csv.join("\n"),
          shipper,
          mapping,
          rate_policy: {
            kind: "cheapest",
            carrier_id: sandbox.carrier_id,
            price_cap: { amount: 0.5, currency: "USD" },
          },
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.id as string;
      expect((await drain(id)).state).toBe("ready");
      const confirmed = await call(purchase, "POST", `/v1/batches/${id}/purchase`, { key, params: { id }, body: {} });
      expect(confirmed.body).toMatchObject({ state: "purchasing", held: 2 });
      expect(await drain(id)).toMatchObject({ state: "purchasing", more: false });
      const decide = (body: unknown) =>
        call(decisions, "POST", `/v1/batches/${id}/decisions`, { key, params: { id }, body });
      expect((await decide({ decision: "skip", lines: [2] })).body).toMatchObject({ state: "purchasing", held: 1 });
      expect(await drain(id)).toMatchObject({ state: "purchasing", more: false });
      expect((await decide({ decision: "skip", lines: [3] })).body).toMatchObject({ state: "purchasing", held: 0 });
      const db = await getDb();
      // The last decision brings the batch back to the runner, which settles it.
      expect(await activeBatches(db)).toContain(id);
      expect((await drain(id)).state).toBe("completed");
      const sent = await db.select({ type: events.type }).from(events).where(eq(events.resourceId, id));
      expect(sent).toEqual([{ type: "batch.completed" }]);
      expect(
        Number(
          (await db.select({ n: count() }).from(carrierLedger).where(eq(carrierLedger.connectionId, sandbox.id)))[0]!.n,
        ),
      ).toBe(0);
      expect((await decide({ decision: "approve", lines: [2] })).status).toBe(409);
    },
  );

  it("refuses a rules policy it could not apply with a 400 naming the field", async () => {
    const { key } = await makeOrg();
    const res = await call(createBatch, "POST", "/v1/batches", {
      key,
      body: {
        csv: `${HEADER}\nSO-1,Ann,1 Elm Street,Austin,TX,78701,US,2`,
        shipper,
        rate_policy: { kind: "rules", rules: [{ destination: { country_code: "USA" }, pick: { kind: "cheapest" } }] },
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe("rate_policy.rules[0].destination.country_code");
  });
});

describe("a batch's webhook mode (issue 33)", () => {
  it("a batch whose rows never got rated sends its event in its connections' mode", { timeout: 300_000 }, async () => {
    const { key } = await makeOrg();
    await addSandbox(key, "live-sbx", { batch_calls_per_second: 1000 }, { test_mode: false });
    // Both rows fail the dry run before any carrier is asked: no rate says the mode.
    const csv = [HEADER, "SO-1,Ann,1 Elm Street,Austin,TX,78701,US,", "SO-2,,2 Elm Street,Austin,TX,78701,US,2"].join(
      "\n",
    );
    const created = await call(createBatch, "POST", "/v1/batches", { key, body: { csv, shipper, mapping } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.test_mode).toBe(false);
    const id = created.body.id as string;
    expect((await drain(id)).state).toBe("ready");
    expect((await call(purchase, "POST", `/v1/batches/${id}/purchase`, { key, params: { id }, body: {} })).status).toBe(
      200,
    );
    expect((await drain(id)).state).toBe("completed_with_errors");
    const db = await getDb();
    const sent = await db.select().from(events).where(eq(events.resourceId, id));
    expect(sent.map((e) => [e.type, e.testMode])).toEqual([["batch.completed_with_errors", false]]);
  });
});
