import { afterEach, describe, expect, it, vi } from "vitest";
import { GET as listShipments, POST as createShipment } from "@/app/v1/shipments/route";
import { GET as getShipment } from "@/app/v1/shipments/[id]/route";
import { sandboxAdapter } from "@/lib/carriers/sandbox/adapter";
import { Shipment } from "@/lib/schemas/shipment";
import { call, makeOrg } from "./helpers";
import { purchaseFor, rateRequest } from "./factories";

/**
 * `payment` given at creation is the shipment's, shown on every read and billed at purchase; a purchase may give its
 * own `payment`, `reference` and `label_type`, which the carrier gets and the purchased shipment keeps.
 */

afterEach(() => vi.restoreAllMocks());

async function create(key: string, extra: Record<string, unknown>) {
  const res = await call(createShipment, "POST", "/v1/shipments", { key, body: rateRequest(extra) });
  expect(res.status).toBe(201);
  const s = Shipment.strict().parse(res.body);
  return { ...s, id: s.id! };
}

const show = async (key: string, id: string) =>
  Shipment.strict().parse((await call(getShipment, "GET", `/v1/shipments/${id}`, { key, params: { id } })).body);

describe("payment, reference and label type through create and purchase", () => {
  it("stores the payment given at creation, shows it, and bills it at purchase", async () => {
    const { key } = await makeOrg();
    const payment = { paid_by: "recipient", account_number: "ACC-778" };
    const s = await create(key, { payment });
    expect(s.payment).toEqual({ paid_by: "recipient", currency: null, account_number: "ACC-778" });
    expect((await show(key, s.id)).payment).toEqual(s.payment);

    const ship = vi.spyOn(sandboxAdapter, "ship");
    const bought = await purchaseFor(key, s);
    expect(bought.status).toBe(200);
    expect(ship.mock.calls[0]![1].payment).toEqual({ paid_by: "recipient", currency: null, account_number: "ACC-778" });
    // Stored with the rate's currency filled in.
    expect(bought.body.shipment.payment).toEqual({ paid_by: "recipient", currency: "USD", account_number: "ACC-778" });
    expect((await show(key, s.id)).payment).toEqual(bought.body.shipment.payment);
  });

  it("a purchase's payment, reference and label_type override the stored ones, reach the carrier and are kept", async () => {
    const { key } = await makeOrg();
    const s = await create(key, { payment: { paid_by: "recipient" }, reference: "ORDER-1", label_type: "PDF" });
    const ship = vi.spyOn(sandboxAdapter, "ship");
    const bought = await purchaseFor(key, s, {
      payment: { paid_by: "third_party", currency: "eur", account_number: "TP-9" },
      reference: "ORDER-1-B",
      label_type: "ZPL",
    });
    expect(bought.status).toBe(200);
    expect(ship.mock.calls[0]![1]).toMatchObject({
      payment: { paid_by: "third_party", currency: "EUR", account_number: "TP-9" },
      reference: "ORDER-1-B",
      label_type: "ZPL",
    });
    const stored = await show(key, s.id);
    expect(stored).toMatchObject({
      payment: { paid_by: "third_party", currency: "EUR", account_number: "TP-9" },
      reference: "ORDER-1-B",
      label_type: "ZPL",
    });
    // The new reference is what lists search and filter by.
    const found = await call(listShipments, "GET", "/v1/shipments", { key, query: { reference: "ORDER-1-B" } });
    expect(found.body.results.map((r: { id: string }) => r.id)).toEqual([s.id]);
  });

  it("without a payment anywhere the sender pays in the rate's currency, and the carrier is told nothing", async () => {
    const { key } = await makeOrg();
    const s = await create(key, {});
    expect(s.payment).toBeNull();
    const ship = vi.spyOn(sandboxAdapter, "ship");
    const bought = await purchaseFor(key, s);
    expect(ship.mock.calls[0]![1]).toMatchObject({ payment: null, reference: s.id });
    expect(bought.body.shipment).toMatchObject({
      payment: { paid_by: "sender", currency: "USD", account_number: null },
      reference: null,
    });
  });
});
