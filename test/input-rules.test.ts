import { afterEach, describe, expect, it, vi } from "vitest";
import { POST as createConnection } from "@/app/v1/connections/route";
import { GET as getConnection, PATCH as patchConnection } from "@/app/v1/connections/[id]/route";
import { POST as proxyRates } from "@/app/v1/proxy/rates/route";
import { POST as proxyShipping } from "@/app/v1/proxy/shipping/route";
import { GET as listShipments, POST as createShipment } from "@/app/v1/shipments/route";
import { GET as getShipment } from "@/app/v1/shipments/[id]/route";
import { sandboxAdapter } from "@/lib/carriers/sandbox/adapter";
import { Shipment } from "@/lib/schemas/shipment";
import { call, makeOrg } from "./helpers";
import { purchaseFor, rateRequest, usRecipient } from "./factories";

/** docs/api.md, "Requests": what `null` and `""` mean, and how much of an address rating and buying need. */

afterEach(() => vi.restoreAllMocks());

const read = (key: string, id: string) => call(getShipment, "GET", `/v1/shipments/${id}`, { key, params: { id } });

const blankOptionalText = {
  email: "",
  phone_number: "",
  company_name: "",
  person_name: "  ",
  address_line2: "",
  suburb: "",
  federal_tax_id: "",
  state_tax_id: "",
};
const notGivenText = Object.fromEntries(Object.keys(blankOptionalText).map((k) => [k, null]));

async function quote(key: string, extra: Record<string, unknown> = {}) {
  const res = await call(proxyRates, "POST", "/v1/proxy/rates", { key, body: rateRequest(extra) });
  expect(res.status).toBe(200);
  return res.body.rates as { id: string; service: string; carrier_ref: string; total_charge: number; meta: object }[];
}

describe("null and \"\" mean 'not given'", () => {
  it("stores a shipment whose optional lists and objects are null as if they were left out", async () => {
    const { key } = await makeOrg();
    const res = await call(createShipment, "POST", "/v1/shipments", {
      key,
      body: rateRequest({ services: null, options: null, carrier_ids: null, customs: null, label_type: null }),
    });
    expect(res.status).toBe(201);
    const stored = await read(key, res.body.id);
    expect(stored.body).toMatchObject({ services: [], options: {}, carrier_ids: [], customs: null, label_type: "PDF" });
  });

  it('stores "" in optional text fields as null, visible after a GET', async () => {
    const { key } = await makeOrg();
    const res = await call(createShipment, "POST", "/v1/shipments", {
      key,
      body: rateRequest({
        reference: "",
        shipper: { ...rateRequest().shipper, ...blankOptionalText },
        recipient: { ...usRecipient, ...blankOptionalText },
        parcels: [{ weight: 1, weight_unit: "KG", description: "", content: "", packaging_type: "" }],
      }),
    });
    expect(res.status).toBe(201);
    const { body } = await read(key, res.body.id);
    expect(body.reference).toBeNull();
    expect(body.shipper).toMatchObject(notGivenText);
    expect(body.recipient).toMatchObject(notGivenText);
    expect(body.parcels[0]).toMatchObject({ description: null, content: null, packaging_type: null });
  });

  it('accepts null and "" the same way in proxy rates and proxy shipping', async () => {
    const { key } = await makeOrg();
    const nulls = { services: null, options: null, carrier_ids: null, reference: "" };
    const offered = await quote(key, { ...nulls, recipient: { ...usRecipient, ...blankOptionalText } });
    const res = await call(proxyShipping, "POST", "/v1/proxy/shipping", {
      key,
      body: {
        ...rateRequest({ recipient: { ...usRecipient, ...blankOptionalText } }),
        options: null,
        customs: null,
        payment: null,
        label_type: "",
        reference: "",
        rates: offered,
        selected_rate_id: offered[0]!.id,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ options: {}, customs: null, reference: null, label_type: "PDF" });
    expect(res.body.payment).toMatchObject({ paid_by: "sender" });
    expect(res.body.recipient).toMatchObject(notGivenText);
  });

  it('creates a connection with a null config and "" display name; PATCH leaves null fields as they are', async () => {
    const { key } = await makeOrg();
    const created = await call(createConnection, "POST", "/v1/connections", {
      key,
      body: { carrier_name: "sandbox", carrier_id: "nulls", display_name: "", config: null, credentials: null },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ display_name: "Sandbox", config: {} });
    const id = created.body.id;
    await call(patchConnection, "PATCH", "", {
      key,
      params: { id },
      body: { display_name: "Kept", config: { pace: 2 } },
    });
    const patched = await call(patchConnection, "PATCH", "", {
      key,
      params: { id },
      body: { display_name: null, config: null, credentials: null },
    });
    expect(patched.status).toBe(200);
    const again = await call(getConnection, "GET", "", { key, params: { id } });
    expect(again.body).toMatchObject({ display_name: "Kept", config: { pace: 2 } });
  });
});

describe("rating needs less than buying", () => {
  const bare = {
    shipper: { country_code: "US", postal_code: "60607" },
    recipient: { country_code: "us", postal_code: "78701" },
  };

  it("rates addresses that have only a country and a postal code", async () => {
    const { key } = await makeOrg();
    const rated = await call(proxyRates, "POST", "/v1/proxy/rates", { key, body: rateRequest(bare) });
    expect(rated.status).toBe(200);
    expect(rated.body.rates.length).toBeGreaterThan(0);

    const created = await call(createShipment, "POST", "/v1/shipments", { key, body: rateRequest(bare) });
    expect(created.status).toBe(201);
    const { body } = await read(key, created.body.id);
    Shipment.strict().parse(body);
    expect(body.recipient).toMatchObject({
      country_code: "US",
      postal_code: "78701",
      city: "",
      address_line1: "",
      state_code: "",
      person_name: null,
    });
  });

  it("answers 422 naming every missing line at purchase, without asking the carrier or changing the shipment", async () => {
    const { key } = await makeOrg();
    const created = await call(createShipment, "POST", "/v1/shipments", {
      key,
      body: rateRequest({ ...bare, recipient: { ...usRecipient, city: "" } }),
    });
    const before = await read(key, created.body.id);
    const ship = vi.spyOn(sandboxAdapter, "ship");
    const res = await purchaseFor(key, created.body);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { code: "address_incomplete", field: "shipper.city", message: "is required to buy a label" },
      { code: "address_incomplete", field: "shipper.address_line1", message: "is required to buy a label" },
      { code: "address_incomplete", field: "shipper.state_code", message: "is required for US addresses" },
      { code: "address_incomplete", field: "recipient.city", message: "is required to buy a label" },
    ]);
    expect(ship).not.toHaveBeenCalled();
    expect((await read(key, created.body.id)).body).toEqual(before.body);
    // Not claimed: a complete shipment of the same organization is bought at once.
    const complete = await call(createShipment, "POST", "/v1/shipments", { key, body: rateRequest() });
    expect((await purchaseFor(key, complete.body)).status).toBe(200);
  });

  it("still requires the full address to buy through proxy shipping (400)", async () => {
    const { key } = await makeOrg();
    const offered = await quote(key, bare);
    const ship = vi.spyOn(sandboxAdapter, "ship");
    const res = await call(proxyShipping, "POST", "/v1/proxy/shipping", {
      key,
      body: { ...rateRequest(bare), rates: offered, selected_rate_id: offered[0]!.id },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(
      [
        "shipper.city",
        "shipper.address_line1",
        "shipper.state_code",
        "recipient.city",
        "recipient.address_line1",
        "recipient.state_code",
      ].sort(),
    );
    expect(ship).not.toHaveBeenCalled();
  });

  it("passes a carrier's refusal to price through as its message, not a 500", async () => {
    const { key } = await makeOrg();
    const res = await call(proxyRates, "POST", "/v1/proxy/rates", {
      key,
      body: rateRequest({ ...bare, recipient: { country_code: "US", postal_code: "00000" } }),
    });
    expect(res.status).toBe(424);
    expect(res.body.messages).toEqual([expect.objectContaining({ level: "error", code: "SBX_INVALID_POSTAL_CODE" })]);
    expect((await call(listShipments, "GET", "/v1/shipments", { key })).body.count).toBe(0);
  });
});

describe("proxy shipping: customs and the rates echo", () => {
  it("passes a top-level customs to the carrier as its typed customs, options untouched, and answers them", async () => {
    const { key } = await makeOrg();
    const offered = await quote(key);
    const ship = vi.spyOn(sandboxAdapter, "ship");
    const customs = {
      content_type: "merchandise",
      commodities: [
        {
          description: "Tea",
          quantity: 2,
          value_amount: 12.5,
          value_currency: "USD",
          weight: 0.1,
          weight_unit: "KG",
          origin_country: "IN",
        },
      ],
    };
    const res = await call(proxyShipping, "POST", "/v1/proxy/shipping", {
      key,
      body: {
        ...rateRequest({ options: { signature: true } }),
        customs,
        rates: offered,
        selected_rate_id: offered[0]!.id,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.customs).toMatchObject({ ...customs, incoterm: "DAP", duty: { paid_by: "recipient" } });
    expect(res.body.options).toEqual({ signature: true });
    expect(ship.mock.calls[0]![1].options).toEqual({ signature: true });
    expect(ship.mock.calls[0]![1].customs).toEqual(res.body.customs);
  });

  it("accepts our own rates answer as it came, with extra keys and a null estimated_delivery", async () => {
    const { key } = await makeOrg();
    const offered = (await quote(key)).map((r) => ({
      ...r,
      object_type: "rate",
      meta: { ...r.meta, estimated_delivery: null, extra: { any: ["thing"] } },
    }));
    const res = await call(proxyShipping, "POST", "/v1/proxy/shipping", {
      key,
      body: { ...rateRequest(), rates: offered, selected_rate_id: offered[1]!.id },
    });
    expect(res.status).toBe(200);
    const shipment = Shipment.strict().parse(res.body);
    expect(shipment.selected_rate_id).toBe(offered[1]!.id);
    expect(shipment.rates.map((r) => r.id)).toEqual(offered.map((r) => r.id));
    expect(shipment.rates[0]!.meta).toMatchObject({ estimated_delivery: null, extra: { any: ["thing"] } });
  });

  it("needs only id, service and carrier_ref on the selected rate; the others may be partial or odd", async () => {
    const { key } = await makeOrg();
    const [chosen] = await quote(key);
    const rates = [
      { id: "partial" },
      { id: 7, total_charge: "12.30", meta: "none", extra_charges: [{ name: 1 }] },
      { id: chosen!.id, service: chosen!.service, carrier_ref: chosen!.carrier_ref },
      {},
    ];
    const res = await call(proxyShipping, "POST", "/v1/proxy/shipping", {
      key,
      body: { ...rateRequest(), rates, selected_rate_id: chosen!.id },
    });
    expect(res.status).toBe(200);
    const shipment = Shipment.strict().parse(res.body);
    // The carrier's charge for the label, under the client's rate id.
    expect(shipment.selected_rate).toMatchObject({ id: chosen!.id, total_charge: chosen!.total_charge });
    expect(shipment.rates).toHaveLength(4);
    expect(shipment.rates[1]).toMatchObject({ id: "", total_charge: 0, extra_charges: [], carrier_name: "" });
  });

  it("refuses a selected rate without service or connection, and an unknown selected_rate_id, at validation", async () => {
    const { key } = await makeOrg();
    const ship = vi.spyOn(sandboxAdapter, "ship");
    const trimmed = await call(proxyShipping, "POST", "/v1/proxy/shipping", {
      key,
      body: { ...rateRequest(), rates: [{ id: "x" }, { id: "r1", carrier_ref: "nope" }], selected_rate_id: "r1" },
    });
    expect(trimmed.status).toBe(400);
    expect(trimmed.body.errors.map((e: { field: string }) => e.field)).toEqual([
      "rates[1].service",
      "rates[1].carrier_ref",
    ]);
    const unknown = await call(proxyShipping, "POST", "/v1/proxy/shipping", {
      key,
      body: { ...rateRequest(), rates: [{ id: "x" }], selected_rate_id: "y" },
    });
    expect(unknown.body.errors).toEqual([
      { code: "validation_error", field: "selected_rate_id", message: "must be the id of one of the given rates" },
    ]);
    expect(ship).not.toHaveBeenCalled();
  });
});
