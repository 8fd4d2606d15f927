import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { and, eq } from "drizzle-orm";
import { POST as quoteRates } from "@/app/v1/proxy/rates/route";
import { POST as proxyShipping } from "@/app/v1/proxy/shipping/route";
import { GET as getShipment } from "@/app/v1/shipments/[id]/route";
import { POST as cancel } from "@/app/v1/shipments/[id]/cancel/route";
import { GET as label } from "@/app/v1/shipments/[id]/label/route";
import { PATCH as patchConnection } from "@/app/v1/connections/[id]/route";
import { sandboxAdapter } from "@/lib/carriers/sandbox/adapter";
import type { LabelType } from "@/lib/carriers/types";
import { getDb } from "@/lib/db/client";
import { carrierLedger, shipments } from "@/lib/db/schema";
import { resetEnvCache } from "@/lib/env";
import { sendLogsTo } from "@/lib/log";
import { ClaimLostError, releaseClaim } from "@/lib/shipments/claim";
import { recordPurchase } from "@/lib/shipments/record-purchase";
import { atDeadline, fakeTimeouts } from "./clock";
import { call, makeOrg } from "./helpers";
import { addSandbox, createShipmentFor, purchaseFor, rateRequest } from "./factories";

/**
 * What a client is told when a purchase, a proxy label or a label file is refused, word for word where the words say
 * what to do next; and what the log says when a purchase's clean-up fails. Faults are injected by pass-through spies.
 */

vi.mock("@/lib/shipments/record-purchase", async (original) => {
  const real = await original<typeof import("@/lib/shipments/record-purchase")>();
  return { ...real, recordPurchase: vi.fn(real.recordPurchase) };
});
vi.mock("@/lib/shipments/claim", async (original) => {
  const real = await original<typeof import("@/lib/shipments/claim")>();
  return { ...real, releaseClaim: vi.fn(real.releaseClaim) };
});

let lines: string[] = [];
beforeAll(() => {
  process.env.LOG_LEVEL = "info";
  resetEnvCache();
  sendLogsTo({ write: (line: string) => void lines.push(line) });
});
afterAll(() => {
  process.env.LOG_LEVEL = "silent";
  resetEnvCache();
});
const soldTypes = sandboxAdapter.label_types;
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  lines = [];
  sellOnly(soldTypes);
});

/** The sandbox as a carrier that sells only these label types (every real adapter sells all three). */
function sellOnly(types: readonly LabelType[]) {
  (sandboxAdapter as { label_types: readonly LabelType[] }).label_types = types;
}

const stateConflict = (message: string) => [{ code: "state_conflict", field: null, message }];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const logged = () => lines.map((l) => JSON.parse(l) as Record<string, any>);

const toronto = {
  person_name: "Chloé Tremblay",
  address_line1: "290 Bremner Blvd",
  city: "Toronto",
  state_code: "ON",
  postal_code: "M5V 3L9",
  country_code: "CA",
  phone_number: "+1 416 555 0199",
};

const customs = (incoterm: "DAP" | "DDP") => ({
  content_type: "merchandise",
  incoterm,
  commodities: [
    {
      description: "Cotton T-shirt",
      quantity: 2,
      value_amount: 15,
      value_currency: "USD",
      weight: 0.25,
      weight_unit: "KG",
      hs_code: "610910",
      origin_country: "US",
    },
  ],
});

const configureConnection = (key: string, id: string, config: Record<string, unknown>) =>
  call(patchConnection, "PATCH", `/v1/connections/${id}`, { key, params: { id }, body: { config } });

const show = async (key: string, id: string) =>
  (await call(getShipment, "GET", `/v1/shipments/${id}`, { key, params: { id } })).body;

const fetchLabel = (key: string, id: string, query: Record<string, string> = {}) =>
  call(label, "GET", `/v1/shipments/${id}/label`, { key, params: { id }, query });

describe("purchase refusals", () => {
  it("a rate of another shipment: 400 on selected_rate_id, saying what it must be", async () => {
    const { key } = await makeOrg();
    const a = await createShipmentFor(key);
    const b = await createShipmentFor(key);
    const res = await purchaseFor(key, a, { selected_rate_id: b.rates[0]!.id });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      {
        code: "validation_error",
        field: "selected_rate_id",
        message: "must be the id of one of this shipment's rates",
      },
    ]);
  });

  it("a label type the carrier does not sell: 400 on label_type naming the carrier's types, nothing bought", async () => {
    const { key } = await makeOrg();
    const s = await createShipmentFor(key, { label_type: "ZPL" });
    sellOnly(["PDF", "PNG"]);
    const ship = vi.spyOn(sandboxAdapter, "ship");
    const res = await purchaseFor(key, s);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { code: "validation_error", field: "label_type", message: "must be one of: PDF, PNG for Sandbox" },
    ]);
    expect(ship).not.toHaveBeenCalled();
    expect(await show(key, s.id)).toMatchObject({ status: "created", label_type: "ZPL", meta: {} });
    // The type asked at purchase is the one checked.
    expect((await purchaseFor(key, s, { label_type: "PNG" })).body.shipment.label_type).toBe("PNG");
  });

  it("a cancelled or already purchased shipment: 409 saying which, and what to do", async () => {
    const { key } = await makeOrg();
    const s = await createShipmentFor(key);
    expect((await purchaseFor(key, s)).status).toBe(200);
    const again = await purchaseFor(key, s);
    expect(again.status).toBe(409);
    expect(again.body.errors).toEqual(stateConflict("The shipment is already purchased; its label was bought."));
    expect((await call(cancel, "POST", `/v1/shipments/${s.id}/cancel`, { key, params: { id: s.id } })).status).toBe(
      200,
    );
    const cancelled = await purchaseFor(key, s);
    expect(cancelled.status).toBe(409);
    expect(cancelled.body.errors).toEqual(stateConflict("The shipment is cancelled; create a new one."));
  });

  it("a claim taken over while recording: 409 saying the label bought here was voided at the carrier", async () => {
    const { key, orgId } = await makeOrg();
    const s = await createShipmentFor(key);
    vi.mocked(recordPurchase).mockRejectedValueOnce(new ClaimLostError());
    const res = await purchaseFor(key, s);
    expect(res.status).toBe(409);
    expect(res.body.errors).toEqual(
      stateConflict("Another purchase or cancellation took this shipment over; the label bought here was voided."),
    );
    const db = await getDb();
    const sold = await db
      .select({ voidedAt: carrierLedger.voidedAt })
      .from(carrierLedger)
      .where(eq(carrierLedger.orgId, orgId));
    expect(sold).toEqual([{ voidedAt: expect.any(Date) }]);
  });

  it("a refusal whose claim cannot be released still answers 424, and logs the database's code only", async () => {
    const { key } = await makeOrg();
    await addSandbox(key, "refuses", { fail_operations: ["ship"] });
    const s = await createShipmentFor(key, { carrier_ids: ["refuses"] });
    vi.mocked(releaseClaim).mockRejectedValueOnce(
      Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }),
    );
    const res = await purchaseFor(key, s);
    expect(res.status).toBe(424);
    expect(res.body.messages).toEqual([
      expect.objectContaining({ code: "carrier_unavailable", carrier_id: "refuses" }),
    ]);
    expect(logged().filter((l) => l.msg === "could not release a purchase claim; it expires by itself")).toEqual([
      expect.objectContaining({ level: 50, shipment_id: s.id, code: "57P01" }),
    ]);
    expect(logged()).toContainEqual(
      expect.objectContaining({ msg: "carrier_operation", operation: "ship", carrier_id: "refuses", outcome: "error" }),
    );
  });
});

describe("a purchase whose answer was lost keeps what it was sent with", () => {
  it("customs given at purchase go into the attempt, stored ones do not; the 424 says what happened and until when", async () => {
    const { key } = await makeOrg();
    const slow = await addSandbox(key, "slow");
    const fresh = await createShipmentFor(key, { recipient: toronto, carrier_ids: ["slow"] });
    const stored = await createShipmentFor(key, { recipient: toronto, carrier_ids: ["slow"], customs: customs("DAP") });
    await configureConnection(key, slow.id, { latency_ms: 2000, deadline_ms: 100 });

    // The carrier's latency and the deadline run on fake timers, moved by the deadline once the carrier has the call.
    const ship = vi.spyOn(sandboxAdapter, "ship");
    fakeTimeouts();
    const lost = await atDeadline(
      purchaseFor(key, fresh, { customs: customs("DDP") }),
      () => ship.mock.calls.length === 1,
      100,
    );
    expect(lost.status).toBe(424);
    const { purchase_attempt: attempt } = (await show(key, fresh.id)).meta;
    expect(attempt.customs).toMatchObject({ incoterm: "DDP", commodities: [{ description: "Cotton T-shirt" }] });
    expect(lost.body.messages[1]).toMatchObject({
      carrier_id: "slow",
      code: "purchase_outcome_unknown",
      level: "error",
      message: expect.stringMatching(
        /^The carrier's answer was lost\. A label purchase of this shipment was sent to sandbox \(slow\) at /,
      ),
      details: { started_at: attempt.started_at, settled_by: attempt.settled_by },
    });

    expect((await atDeadline(purchaseFor(key, stored), () => ship.mock.calls.length === 2, 100)).status).toBe(424);
    expect((await show(key, stored.id)).meta.purchase_attempt).not.toHaveProperty("customs");
  });
});

describe("proxy label refusals and answers", () => {
  async function quote(key: string) {
    const res = await call(quoteRates, "POST", "/v1/proxy/rates", { key, body: rateRequest() });
    expect(res.status).toBe(200);
    return res.body.rates as { id: string; service: string; total_charge: number; carrier_ref: string }[];
  }

  it("a label type the carrier does not sell: 400 on label_type naming the carrier's types, nothing bought", async () => {
    const { key } = await makeOrg();
    const offered = await quote(key);
    sellOnly(["PNG", "PDF"]);
    const ship = vi.spyOn(sandboxAdapter, "ship");
    const res = await call(proxyShipping, "POST", "/v1/proxy/shipping", {
      key,
      body: { ...rateRequest(), rates: offered, selected_rate_id: offered[0]!.id, label_type: "ZPL" },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { code: "validation_error", field: "label_type", message: "must be one of: PNG, PDF for Sandbox" },
    ]);
    expect(ship).not.toHaveBeenCalled();
  });

  it("the selected rate is the carrier's charge among the client's rates; carrier_ids names the connection", async () => {
    const { key } = await makeOrg();
    const offered = await quote(key);
    expect(offered.length).toBeGreaterThan(1);
    // The client's copy understates the chosen rate; the other rates are answered as the client sent them.
    const sent = offered.map((r, i) => ({ ...r, total_charge: i === 1 ? 0.01 : r.total_charge + 100 }));
    const res = await call(proxyShipping, "POST", "/v1/proxy/shipping", {
      key,
      body: { ...rateRequest(), rates: sent, selected_rate_id: offered[1]!.id },
    });
    expect(res.status).toBe(200);
    expect(res.body.carrier_ids).toEqual(["sandbox"]);
    expect(res.body.selected_rate).toMatchObject({ id: offered[1]!.id, total_charge: offered[1]!.total_charge });
    expect(res.body.rates[1]).toEqual(res.body.selected_rate);
    expect(res.body.rates.map((r: { id: string; total_charge: number }) => [r.id, r.total_charge])).toEqual(
      offered.map((r, i) => [r.id, i === 1 ? r.total_charge : r.total_charge + 100]),
    );
    expect(logged()).toContainEqual(
      expect.objectContaining({ msg: "carrier_operation", operation: "ship", carrier_id: "sandbox", outcome: "ok" }),
    );
  });
});

describe("label file refusals", () => {
  it("says why no file is handed out: none bought yet, the wrong format, a cancellation unsettled or done", async () => {
    const { key, orgId } = await makeOrg();
    const s = await createShipmentFor(key);
    const conflict = (message: string) => ({ status: 409, body: { errors: stateConflict(message) } });
    const answer = async (query: Record<string, string> = {}) => {
      const res = await fetchLabel(key, s.id, query);
      return { status: res.status, body: res.body };
    };

    expect(await answer()).toEqual(conflict("The shipment has no label yet: purchase it first."));
    expect((await purchaseFor(key, s)).status).toBe(200);
    expect(await answer({ format: "png" })).toEqual({
      status: 400,
      body: { errors: [{ code: "validation_error", field: "format", message: "this shipment's label is PDF" }] },
    });

    // A cancellation that lost the carrier's answer: the label may be voided.
    const db = await getDb();
    const where = and(eq(shipments.orgId, orgId), eq(shipments.id, s.id));
    const [row] = await db.select({ meta: shipments.meta }).from(shipments).where(where);
    const cancelAttempt = {
      started_at: "2026-01-01 00:00:00.000000+00:00",
      settled_by: "2026-01-01 00:02:00.000000+00:00",
    };
    await db
      .update(shipments)
      .set({ meta: { ...row!.meta, cancel_attempt: cancelAttempt } })
      .where(where);
    expect(await answer()).toEqual(
      conflict(
        "A cancellation's outcome is not recorded: the label may be voided; cancel the shipment again to settle it.",
      ),
    );
    await db.update(shipments).set({ meta: row!.meta }).where(where);
    expect((await fetchLabel(key, s.id)).status).toBe(200);

    expect((await call(cancel, "POST", `/v1/shipments/${s.id}/cancel`, { key, params: { id: s.id } })).status).toBe(
      200,
    );
    expect(await answer()).toEqual(conflict("The shipment is cancelled and its label voided; it must not be used."));
  });
});
