import { describe, expect, it } from "vitest";
import { PDFDocument } from "pdf-lib";
import { POST as createConnection } from "@/app/v1/connections/route";
import { GET as getConnection } from "@/app/v1/connections/[id]/route";
import { POST as rates } from "@/app/v1/proxy/rates/route";
import { POST as shipping } from "@/app/v1/proxy/shipping/route";
import { GET as track } from "@/app/v1/proxy/tracking/[carrier_name]/[tracking_number]/route";
import { GET as label } from "@/app/v1/shipments/[id]/label/route";
import { POST as cancel } from "@/app/v1/shipments/[id]/cancel/route";
import { refreshConnection } from "@/lib/trackers/refresh/refresh-connection";
import { fedexEmulatorNumber } from "@/test/emulator/fedex";
import { addConnection, useCarrierEmulator } from "@/test/emulator-helpers";
import { FEDEX_CREDENTIALS } from "@/test/fedex-context";
import { call, makeOrg, systemCtx } from "./helpers";
import { createShipmentFor, purchaseFor, rateRequest } from "./factories";
import { seedDueTrackers, trackerRows } from "./refresh-helpers";

/** FedEx end to end: a `fedex` connection made through the API, every endpoint against the emulator's FedEx. */

const emulator = useCarrierEmulator();
const calls = (operation: string) => emulator.current.calls.filter((c) => c.operation === operation);

const toronto = {
  person_name: "Chloé Tremblay",
  address_line1: "290 Bremner Blvd",
  city: "Toronto",
  state_code: "ON",
  postal_code: "M5V 3L9",
  country_code: "CA",
  phone_number: "+1 416 555 0199",
};

const customs = {
  content_type: "merchandise",
  incoterm: "DAP",
  invoice: "INV-77",
  commercial_invoice: true,
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
};

async function fedexOrg() {
  const org = await makeOrg();
  const conn = await addConnection(org.key, {
    carrier_name: "fedex",
    carrier_id: "fedex-main",
    credentials: FEDEX_CREDENTIALS,
    config: { label_stock: "4x6", pickup_type: "DROPOFF_AT_FEDEX_LOCATION" },
  });
  return { ...org, conn };
}

async function fedexRates(key: string, extra: Record<string, unknown> = {}) {
  const res = await call(rates, "POST", "/v1/proxy/rates", {
    key,
    body: rateRequest({ carrier_ids: ["fedex-main"], ...extra }),
  });
  expect(res.status).toBe(200);
  return res.body.rates as { id: string; service: string; carrier_name: string; total_charge: number }[];
}

const labelBytes = (label: string) => Buffer.from(label.replace(/\n/g, ""), "base64");

describe("a fedex connection", () => {
  it("is made through POST /v1/connections: credentials validated, never answered", async () => {
    const { key, conn } = await fedexOrg();
    const shown = await call(getConnection, "GET", `/v1/connections/${conn.id}`, { key, params: { id: conn.id } });
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ carrier_name: "fedex", carrier_id: "fedex-main" });
    const text = JSON.stringify(shown.body);
    expect(text).not.toContain(FEDEX_CREDENTIALS.secret_key);
    expect(text).not.toContain(FEDEX_CREDENTIALS.api_key);

    const bad = await call(createConnection, "POST", "/v1/connections", {
      key,
      body: {
        carrier_name: "fedex",
        carrier_id: "fedex-bad",
        credentials: { api_key: "k", account_number: "12-34", meter_number: "1" },
        config: { label_stock: "A4" },
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(
      ["config.label_stock", "credentials.account_number", "credentials.meter_number", "credentials.secret_key"].sort(),
    );

    // A label size is one FedEx prints (GET /v1/carriers' label_sizes), else refused before any label is bought.
    const sized = (carrier_id: string, label_stock: string) =>
      call(createConnection, "POST", "/v1/connections", {
        key,
        body: { carrier_name: "fedex", carrier_id, credentials: FEDEX_CREDENTIALS, config: { label_stock } },
      });
    expect((await sized("fedex-4x8", "4x8")).status).toBe(201);
    const tooLong = await sized("fedex-4x9", "4x9");
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors.map((e: { field: string }) => e.field)).toEqual(["config.label_stock"]);
  });
});

describe("FedEx through the proxy endpoints", () => {
  it("rates and buys a domestic label; the label is FedEx's PDF and the number tracks", async () => {
    const { key } = await fedexOrg();
    const offered = await fedexRates(key);
    expect(offered.length).toBeGreaterThanOrEqual(3);
    expect(offered.every((r) => r.carrier_name === "fedex")).toBe(true);
    const chosen = offered.find((r) => r.service === "FEDEX_2_DAY")!;
    const bought = await call(shipping, "POST", "/v1/proxy/shipping", {
      key,
      body: { ...rateRequest(), rates: offered, selected_rate_id: chosen.id, reference: "ORDER-1001" },
    });
    expect(bought.status).toBe(200);
    expect(bought.body).toMatchObject({ status: "purchased", carrier_name: "fedex", service: "FEDEX_2_DAY" });
    expect(bought.body.tracking_number).toMatch(/^7\d{11}$/);
    expect(bought.body.selected_rate.total_charge).toBe(chosen.total_charge);
    expect((await PDFDocument.load(labelBytes(bought.body.label))).getPageCount()).toBe(1);
    const sent = JSON.parse(calls("ship")[0]!.body);
    expect(sent.requestedShipment.requestedPackageLineItems[0].customerReferences[0]).toEqual({
      customerReferenceType: "CUSTOMER_REFERENCE",
      value: "ORDER-1001",
    });

    const n = bought.body.tracking_number;
    const tracked = await call(track, "GET", `/v1/proxy/tracking/fedex/${n}`, {
      key,
      params: { carrier_name: "fedex", tracking_number: n },
    });
    expect(tracked.status).toBe(200);
    expect(tracked.body.tracking).toMatchObject({ carrier_name: "fedex", tracking_number: n, status: "pending" });

    const unknown = fedexEmulatorNumber({ scenario: 9 });
    const missing = await call(track, "GET", `/v1/proxy/tracking/fedex/${unknown}`, {
      key,
      params: { carrier_name: "fedex", tracking_number: unknown },
    });
    expect(missing.status).toBe(404);
    expect(missing.body.messages[0]).toMatchObject({ carrier_name: "fedex", code: "tracking_not_found" });
  });

  it("buys an international label with customs sent as FedEx's customs detail and Electronic Trade Documents", async () => {
    const { key } = await fedexOrg();
    const offered = await fedexRates(key, { recipient: toronto });
    expect(offered.map((r) => r.service).sort()).toEqual(["FEDEX_INTERNATIONAL_PRIORITY", "INTERNATIONAL_ECONOMY"]);
    const bought = await call(shipping, "POST", "/v1/proxy/shipping", {
      key,
      body: { ...rateRequest({ recipient: toronto }), rates: offered, selected_rate_id: offered[0]!.id, customs },
    });
    expect(bought.status).toBe(200);
    const shipment = JSON.parse(calls("ship")[0]!.body).requestedShipment;
    expect(shipment.customsClearanceDetail).toMatchObject({
      dutiesPayment: { paymentType: "RECIPIENT" },
      commercialInvoice: {
        termsOfSale: "DAP",
        shipmentPurpose: "SOLD",
        customerReferences: [{ customerReferenceType: "INVOICE_NUMBER", value: "INV-77" }],
      },
      commodities: [
        {
          description: "Cotton T-shirt",
          quantity: 2,
          quantityUnits: "PCS",
          unitPrice: { amount: 15, currency: "USD" },
          customsValue: { amount: 30, currency: "USD" },
          harmonizedCode: "610910",
          countryOfManufacture: "US",
        },
      ],
    });
    expect(shipment.shipmentSpecialServices.specialServiceTypes).toEqual(["ELECTRONIC_TRADE_DOCUMENTS"]);
  });

  it("refuses an international label without customs: 422 naming customs, FedEx never asked to ship", async () => {
    const { key } = await fedexOrg();
    const offered = await fedexRates(key, { recipient: toronto });
    const res = await call(shipping, "POST", "/v1/proxy/shipping", {
      key,
      body: { ...rateRequest({ recipient: toronto }), rates: offered, selected_rate_id: offered[0]!.id },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ code: "customs_required", field: "customs" });
    expect(calls("ship")).toHaveLength(0);
  });

  it("answers a FedEx outage as the carrier's messages, never a 500", async () => {
    const { key } = await fedexOrg();
    emulator.current.set("fedex", { fault: { kind: "status", status: 503 } });
    const res = await call(rates, "POST", "/v1/proxy/rates", {
      key,
      body: rateRequest({ carrier_ids: ["fedex-main"] }),
    });
    expect(res.status).toBeLessThan(500);
    expect(res.body.messages[0]).toMatchObject({ carrier_name: "fedex", code: "carrier_unavailable" });
  });
});

describe("FedEx through the managed endpoints", () => {
  it("creates, purchases, serves the label and cancels at FedEx", async () => {
    const { key } = await fedexOrg();
    const s = await createShipmentFor(key, { carrier_ids: ["fedex-main"] });
    expect(s.rates.every((r) => r.carrier_ref)).toBe(true);
    const bought = await purchaseFor(key, s);
    expect(bought.status).toBe(200);
    const shipment = bought.body.shipment;
    expect(shipment).toMatchObject({ status: "purchased", carrier_name: "fedex" });
    expect(shipment.tracking_number).toMatch(/^7\d{11}$/);

    const url = `/v1/shipments/${s.id}/label`;
    const file = await label(new Request(`http://localhost${url}`, { headers: { Authorization: `Token ${key}` } }), {
      params: Promise.resolve({ id: s.id }),
    });
    expect(file.status).toBe(200);
    expect((await PDFDocument.load(new Uint8Array(await file.arrayBuffer()))).getPageCount()).toBe(1);

    const cancelled = await call(cancel, "POST", `/v1/shipments/${s.id}/cancel`, { key, params: { id: s.id } });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.shipment.status).toBe("cancelled");
    expect(calls("void")).toHaveLength(1);
    expect(JSON.parse(calls("void")[0]!.body)).toMatchObject({
      trackingNumber: shipment.tracking_number,
      deletionControl: "DELETE_ALL_PACKAGES",
    });
  });
});

describe("background refresh of FedEx trackers", () => {
  it("refreshes 65 trackers in three tracking calls of at most 30 numbers", async () => {
    const { orgId, conn } = await fedexOrg();
    const soldAt = new Date(Date.now() - 40 * 3_600_000);
    const delivered = Array.from({ length: 40 }, (_, i) => fedexEmulatorNumber({ soldAt, serial: 200 + i }));
    const inTransit = Array.from({ length: 25 }, (_, i) =>
      fedexEmulatorNumber({ soldAt, serial: 300 + i, scenario: 2 }),
    );
    const ids = await seedDueTrackers(orgId, conn.id, [...delivered, ...inTransit]);
    const report = await refreshConnection({ ctx: await systemCtx(), connectionId: conn.id });
    expect(report).toMatchObject({ due: 65, refreshed: 65, failed: 0, requests: 3 });
    // The three calls go out in parallel: their order is the network's.
    const sizes = calls("track").map((c) => JSON.parse(c.body).trackingInfo.length as number);
    expect(sizes.sort((a, b) => b - a)).toEqual([30, 30, 5]);
    const rows = new Map((await trackerRows(ids)).map((r) => [r.trackingNumber, r]));
    for (const n of delivered) expect(rows.get(n)).toMatchObject({ status: "delivered", nextRefreshAt: null });
    for (const n of inTransit) expect(rows.get(n)!.status).toBe("in_transit");
  });
});
