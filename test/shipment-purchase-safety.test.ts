import { ShipmentPurchase } from "@/lib/schemas/shipment";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { POST as createShipment } from "@/app/v1/shipments/route";
import { GET as getShipment } from "@/app/v1/shipments/[id]/route";
import { POST as purchase } from "@/app/v1/shipments/[id]/purchase/route";
import { sandboxAdapter } from "@/lib/carriers/sandbox/adapter";
import { getDb } from "@/lib/db/client";
import type { Db } from "@/lib/db/tx";
import { labels, shipments, trackers } from "@/lib/db/schema";
import { toErrorResponse } from "@/lib/api/errors";
import { purchaseShipment } from "@/lib/shipments/purchase-shipment";
import { recordRetryPolicy } from "@/lib/shipments/record-retries";
import { call, makeOrg, orgCtx } from "./helpers";
import { addSandbox, claimStateOf, createShipmentFor, purchaseFor, purchasePaced, rateRequest } from "./factories";

// Recording is retried for ~10 s while the database is away; these tests fail it on purpose, so without the pauses.
const realDelays = recordRetryPolicy.delaysMs;
beforeEach(() => {
  recordRetryPolicy.delaysMs = realDelays.map(() => 0);
});
afterEach(() => {
  vi.restoreAllMocks();
  recordRetryPolicy.delaysMs = realDelays;
});

const dbDown = () => Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" });

/** The real database, except that its next `failures` transactions fail as if Postgres restarted. */
function flakyTransactions(db: Db, failures: number): Db {
  let left = failures;
  return new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === "transaction" && left > 0) {
        left--;
        return async () => {
          throw dbDown();
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe("exactly one label per shipment", () => {
  it("10 concurrent purchases buy one label: one 200, nine 409 state_conflict", async () => {
    const { key, orgId } = await makeOrg();
    const s = await createShipmentFor(key);
    const ship = vi.spyOn(sandboxAdapter, "ship");
    const answers = await Promise.all(Array.from({ length: 10 }, () => purchaseFor(key, s)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, ...Array(9).fill(409)]);
    for (const a of answers.filter((x) => x.status === 409)) expect(a.body.errors[0].code).toBe("state_conflict");
    expect(ship).toHaveBeenCalledTimes(1);
    const db = await getDb();
    expect(await db.select().from(labels).where(eq(labels.shipmentId, s.id))).toHaveLength(1);
    expect(await db.select().from(trackers).where(eq(trackers.orgId, orgId))).toHaveLength(1);
  });

  it("replays a purchase with the same Idempotency-Key without buying again, also when sent twice at once", async () => {
    const { key } = await makeOrg();
    const s = await createShipmentFor(key);
    const ship = vi.spyOn(sandboxAdapter, "ship");
    const send = () =>
      call(purchase, "POST", `/v1/shipments/${s.id}/purchase`, {
        key,
        params: { id: s.id },
        headers: { "Idempotency-Key": "buy-once" },
        body: { selected_rate_id: s.rates[0]!.id },
      });
    const [a, b] = await Promise.all([send(), send()]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const loser = a.status === 409 ? a : b;
    expect(["idempotency_in_progress", "state_conflict"]).toContain(loser.body.errors[0].code);
    const replay = await send();
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual((a.status === 200 ? a : b).body);
    expect(ship).toHaveBeenCalledTimes(1);
  });

  it("replays a create with the same Idempotency-Key: one shipment, rated once", async () => {
    const { key, orgId } = await makeOrg();
    const rate = vi.spyOn(sandboxAdapter, "rate");
    const send = () =>
      call(createShipment, "POST", "/v1/shipments", {
        key,
        headers: { "Idempotency-Key": "create-1" },
        body: rateRequest(),
      });
    const first = await send();
    const second = await send();
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body.id).toBe(first.body.id);
    expect(rate).toHaveBeenCalledTimes(1);
    const db = await getDb();
    expect(await db.select().from(shipments).where(eq(shipments.orgId, orgId))).toHaveLength(1);
  });
});

describe("a purchase paced by its caller's budget (a batch's row)", () => {
  it("waits holding no claim, claims as its last step, then calls the carrier", async () => {
    const { key, orgId } = await makeOrg();
    const s = await createShipmentFor(key);
    const ship = vi.spyOn(sandboxAdapter, "ship");
    const seen: unknown[] = [];
    const out = await purchasePaced(orgId, s, async (connection, steps) => {
      seen.push(connection.id, await claimStateOf(s.id));
      await steps!.last!();
      seen.push(await claimStateOf(s.id), ship.mock.calls.length);
    });
    expect(out.shipment.status).toBe("purchased");
    expect(seen).toEqual([
      s.rates[0]!.carrier_ref,
      { pending: null, attempt: false },
      { pending: "purchase", attempt: true },
      0,
    ]);
    expect(ship).toHaveBeenCalledTimes(1);
  });

  it("a late call gives its claim back, attempt removed, and claims again for its next slot", async () => {
    const { key, orgId } = await makeOrg();
    const s = await createShipmentFor(key);
    const ship = vi.spyOn(sandboxAdapter, "ship");
    const seen: unknown[] = [];
    const out = await purchasePaced(orgId, s, async (_connection, steps) => {
      await steps!.last!();
      await steps!.undo!();
      seen.push(await claimStateOf(s.id));
      await steps!.last!();
    });
    expect(out.shipment.status).toBe("purchased");
    expect(seen).toEqual([{ pending: null, attempt: false }]);
    expect(ship).toHaveBeenCalledTimes(1);
  });

  it("a pace that throws (its batch cancelled) buys nothing and leaves the shipment free", async () => {
    const { key, orgId } = await makeOrg();
    const s = await createShipmentFor(key);
    const ship = vi.spyOn(sandboxAdapter, "ship");
    const stopped = new Error("the batch is no longer being bought");
    await expect(purchasePaced(orgId, s, () => Promise.reject(stopped))).rejects.toBe(stopped);
    expect(ship).not.toHaveBeenCalled();
    expect(await claimStateOf(s.id)).toEqual({ pending: null, attempt: false });
    expect((await purchaseFor(key, s)).status).toBe(200);
  });
});

describe("a bought label never goes missing", () => {
  it("retries recording while the database restarts, then answers the purchase", async () => {
    const { key, orgId } = await makeOrg();
    const s = await createShipmentFor(key);
    const ship = vi.spyOn(sandboxAdapter, "ship");
    const voids = vi.spyOn(sandboxAdapter, "void");
    const db = flakyTransactions(await getDb(), 2);
    const out = await purchaseShipment({
      ctx: await orgCtx(orgId, db),
      id: s.id,
      input: ShipmentPurchase.parse({ selected_rate_id: s.rates[0]!.id }),
    });
    expect(out.shipment.status).toBe("purchased");
    expect(ship).toHaveBeenCalledTimes(1);
    expect(voids).not.toHaveBeenCalled();
    const stored = await call(getShipment, "GET", `/v1/shipments/${s.id}`, { key, params: { id: s.id } });
    expect(stored.body.tracking_number).toBe(out.shipment.tracking_number);
  });

  it("voids the label when it cannot be recorded: 503, the shipment stays created and can be bought again", async () => {
    const { key, orgId } = await makeOrg();
    const s = await createShipmentFor(key);
    const ship = vi.spyOn(sandboxAdapter, "ship");
    const voids = vi.spyOn(sandboxAdapter, "void");
    const db = flakyTransactions(await getDb(), 10);
    const failure = await purchaseShipment({
      ctx: await orgCtx(orgId, db),
      id: s.id,
      input: ShipmentPurchase.parse({ selected_rate_id: s.rates[0]!.id }),
    }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(toErrorResponse(failure, "req_test").status).toBe(503);
    expect(ship).toHaveBeenCalledTimes(1);
    expect(voids).toHaveBeenCalledTimes(1);
    const bought = await ship.mock.results[0]!.value;
    expect(voids.mock.calls[0]![1]).toMatchObject({ tracking_number: bought.data.tracking_number });

    const stored = await call(getShipment, "GET", `/v1/shipments/${s.id}`, { key, params: { id: s.id } });
    expect(stored.body).toMatchObject({ status: "created", label: null, tracking_number: null, tracker_id: null });
    const again = await purchaseFor(key, s);
    expect(again.status).toBe(200);
    expect(again.body.messages).toEqual([]);
  });

  it("when the void fails too, the shipment stays claimed until the claim expires, then the next purchase finds that label instead of buying another", async () => {
    const { key, orgId } = await makeOrg();
    const brittle = await addSandbox(key, "brittle", { fail_operations: ["void"] });
    const s = await createShipmentFor(key, { carrier_ids: [brittle.id] });
    const ship = vi.spyOn(sandboxAdapter, "ship");
    const db = flakyTransactions(await getDb(), 10);
    await expect(
      purchaseShipment({
        ctx: await orgCtx(orgId, db),
        id: s.id,
        input: ShipmentPurchase.parse({ selected_rate_id: s.rates[0]!.id }),
      }),
    ).rejects.toMatchObject({ code: "57P01" });
    const orphan = (await ship.mock.results[0]!.value).data.tracking_number;

    const blocked = await purchaseFor(key, s);
    expect(blocked.status).toBe(409);
    expect(blocked.body.errors[0]).toMatchObject({
      code: "state_conflict",
      message: expect.stringMatching(/in progress/),
    });

    const real = await getDb();
    await real
      .update(shipments)
      .set({ pendingUntil: new Date(Date.now() - 1000) })
      .where(eq(shipments.id, s.id));
    const later = await purchaseFor(key, s);
    expect(later.status).toBe(200);
    expect(ship).toHaveBeenCalledTimes(1);
    expect(later.body.shipment).toMatchObject({ status: "purchased", tracking_number: orphan });
    expect(later.body.messages).toEqual([expect.objectContaining({ code: "purchase_recovered", level: "info" })]);
    expect(later.body.shipment.messages).toEqual(later.body.messages);
    expect(later.body.shipment.meta).not.toHaveProperty("purchase_attempt");
  });
});
