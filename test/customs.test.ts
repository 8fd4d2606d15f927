import { afterEach, describe, expect, it, vi } from "vitest";
import { POST as rates } from "@/app/v1/proxy/rates/route";
import { POST as shipping } from "@/app/v1/proxy/shipping/route";
import { GET as getShipment } from "@/app/v1/shipments/[id]/route";
import { sandboxAdapter } from "@/lib/carriers/sandbox/adapter";
import { call, makeOrg } from "./helpers";
import { createShipmentFor, purchaseFor, rateRequest, torontoRecipient, tshirtCustoms } from "./factories";

const toronto = torontoRecipient;
const customs = tshirtCustoms;

async function quote(key: string, extra: Record<string, unknown>) {
  const res = await call(rates, "POST", "/v1/proxy/rates", { key, body: rateRequest(extra) });
  expect(res.status).toBe(200);
  return res.body.rates as { id: string }[];
}

afterEach(() => vi.restoreAllMocks());

describe("customs on proxy shipping", () => {
  it("refuses a label across a customs border without customs: 422 naming customs, nothing bought", async () => {
    const { key } = await makeOrg();
    const offered = await quote(key, { recipient: toronto });
    const ship = vi.spyOn(sandboxAdapter, "ship");
    const res = await call(shipping, "POST", "/v1/proxy/shipping", {
      key,
      body: { ...rateRequest({ recipient: toronto }), rates: offered, selected_rate_id: offered[0]!.id },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ code: "customs_required", field: "customs" });
    expect(res.body.errors[0].message).toMatch(/US to CA/);
    expect(ship).not.toHaveBeenCalled();
  });

  it("buys with customs, hands the carrier the typed declaration and answers it", async () => {
    const { key } = await makeOrg();
    const offered = await quote(key, { recipient: toronto });
    const ship = vi.spyOn(sandboxAdapter, "ship");
    const res = await call(shipping, "POST", "/v1/proxy/shipping", {
      key,
      body: { ...rateRequest({ recipient: toronto }), rates: offered, selected_rate_id: offered[0]!.id, customs },
    });
    expect(res.status).toBe(200);
    const sent = ship.mock.calls[0]![1];
    expect(sent.customs).toMatchObject({
      incoterm: "DAP",
      duty: { paid_by: "recipient", currency: "USD" },
      commodities: [{ hs_code: "610910", origin_country: "US", sku: null }],
    });
    expect(sent.options).toEqual({});
    expect(res.body.customs).toEqual(sent.customs);
  });

  it("reads customs sent the 2021.7 way inside options, with their own field paths", async () => {
    const { key } = await makeOrg();
    const offered = await quote(key, { recipient: toronto });
    const bad = await call(shipping, "POST", "/v1/proxy/shipping", {
      key,
      body: {
        ...rateRequest({ recipient: toronto }),
        rates: offered,
        selected_rate_id: offered[0]!.id,
        options: { customs: { commodities: [{ ...customs.commodities[0], quantity: -1 }] } },
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe("options.customs.commodities[0].quantity");
    const good = await call(shipping, "POST", "/v1/proxy/shipping", {
      key,
      body: {
        ...rateRequest({ recipient: toronto }),
        rates: offered,
        selected_rate_id: offered[0]!.id,
        options: { customs },
      },
    });
    expect(good.status).toBe(200);
    expect(good.body.customs).toMatchObject({ incoterm: "DAP" });
  });

  it("asks nothing of a parcel that stays inside one customs territory", async () => {
    const { key } = await makeOrg();
    const offered = await quote(key, {});
    const res = await call(shipping, "POST", "/v1/proxy/shipping", {
      key,
      body: { ...rateRequest(), rates: offered, selected_rate_id: offered[0]!.id },
    });
    expect(res.status).toBe(200);
    expect(res.body.customs).toBeNull();
    // An empty 2021.7 `options.customs` is no customs, not a declaration to read.
    const empty = await call(shipping, "POST", "/v1/proxy/shipping", {
      key,
      body: { ...rateRequest(), rates: offered, selected_rate_id: offered[0]!.id, options: { customs: null } },
    });
    expect(empty.status).toBe(200);
    expect(empty.body.customs).toBeNull();
  });
});

describe("customs on managed shipments", () => {
  it("creates without customs, refuses the purchase with 422 and leaves the shipment created", async () => {
    const { key } = await makeOrg();
    const shipment = await createShipmentFor(key, { recipient: toronto });
    const ship = vi.spyOn(sandboxAdapter, "ship");
    const res = await purchaseFor(key, shipment);
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ code: "customs_required", field: "customs" });
    expect(ship).not.toHaveBeenCalled();
    const after = await call(getShipment, "GET", `/v1/shipments/${shipment.id}`, { key, params: { id: shipment.id } });
    expect(after.body).toMatchObject({ status: "created", customs: null, meta: {} });
  });

  it("buys with customs given at purchase and stores them with the label", async () => {
    const { key } = await makeOrg();
    const shipment = await createShipmentFor(key, { recipient: toronto });
    const res = await purchaseFor(key, shipment, { customs });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("purchased");
    const after = await call(getShipment, "GET", `/v1/shipments/${shipment.id}`, { key, params: { id: shipment.id } });
    expect(after.body.customs).toMatchObject({ incoterm: "DAP", commodities: [{ description: "Cotton T-shirt" }] });
  });

  it("validates customs at creation, by path, and buys with the stored ones", async () => {
    const { key } = await makeOrg();
    const { POST } = await import("@/app/v1/shipments/route");
    const bad = await call(POST, "POST", "/v1/shipments", {
      key,
      body: rateRequest({ recipient: toronto, customs: { ...customs, incoterm: "XYZ" } }),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe("customs.incoterm");
    const shipment = await createShipmentFor(key, { recipient: toronto, customs });
    expect(shipment.customs).toMatchObject({ content_type: "merchandise", duty: { paid_by: "recipient" } });
    const res = await purchaseFor(key, shipment);
    expect(res.status).toBe(200);
  });
});

describe("customs stored before they were typed", () => {
  it("answers 422 customs_required by field at purchase, and buys once the purchase sends good ones", async () => {
    const { key, orgId } = await makeOrg();
    const shipment = await createShipmentFor(key, { recipient: toronto });
    const { getDb } = await import("@/lib/db/client");
    const { shipments } = await import("@/lib/db/schema");
    const { and, eq } = await import("drizzle-orm");
    const db = await getDb();
    await db
      .update(shipments)
      .set({ customs: { commodities: [{ description: "Mug" }] } })
      .where(and(eq(shipments.orgId, orgId), eq(shipments.id, shipment.id)));
    const refused = await purchaseFor(key, shipment);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((e: { code: string }) => e.code)).toContain("customs_required");
    expect(refused.body.errors.map((e: { field: string }) => e.field)).toContain("customs.commodities[0].quantity");
    const bought = await purchaseFor(key, shipment, { customs });
    expect(bought.status).toBe(200);
  });
});
