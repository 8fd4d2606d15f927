import { describe, expect, it } from "vitest";
import { PDFDocument } from "pdf-lib";
import { POST as createConnection } from "@/app/v1/connections/route";
import { GET as getConnection } from "@/app/v1/connections/[id]/route";
import { POST as rates } from "@/app/v1/proxy/rates/route";
import { POST as shipping } from "@/app/v1/proxy/shipping/route";
import { GET as track } from "@/app/v1/proxy/tracking/[carrier_name]/[tracking_number]/route";
import { GET as listDocuments } from "@/app/v1/shipments/[id]/documents/route";
import { GET as label } from "@/app/v1/shipments/[id]/label/route";
import { POST as cancel } from "@/app/v1/shipments/[id]/cancel/route";
import { dhlExpressAdapter } from "@/lib/carriers/dhl_express/adapter";
import { dhlEmulatorNumber } from "@/test/emulator/dhl_express";
import { addConnection, useCarrierEmulator } from "@/test/emulator-helpers";
import { DHL_CREDENTIALS } from "@/test/dhl-context";
import { refreshConnection } from "@/lib/trackers/refresh/refresh-connection";
import { call, makeOrg, systemCtx } from "./helpers";
import { seedDueTrackers, trackerRows } from "./refresh-helpers";
import { createShipmentFor, purchaseFor, rateRequest } from "./factories";

/**
 * DHL Express end to end: a `dhl_express` connection made through the API, the proxy and managed endpoints against the
 * emulator's MyDHL, and a cancel after purchase, which MyDHL cannot void: cancelled here with DHL's note, never a 500.
 */

const emulator = useCarrierEmulator();
const calls = (operation: string) => emulator.current.calls.filter((c) => c.operation === operation);

const london = {
  person_name: "Clara Buyer",
  company_name: "Tea & Co Ltd",
  address_line1: "10 Downing Street",
  city: "London",
  postal_code: "SW1A 2AA",
  country_code: "GB",
  phone_number: "+44 20 7946 0958",
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

async function dhlOrg(config: Record<string, unknown> = {}) {
  const org = await makeOrg();
  const conn = await addConnection(org.key, {
    carrier_name: "dhl_express",
    carrier_id: "dhl-main",
    credentials: DHL_CREDENTIALS,
    config: { label_stock: "4x6", paperless_trade: true, ...config },
  });
  return { ...org, conn };
}

const labelBytes = (label: string) => Buffer.from(label.replace(/\n/g, ""), "base64");

describe("a dhl_express connection", () => {
  it("is made through POST /v1/connections: credentials validated, never answered", async () => {
    const { key, conn } = await dhlOrg();
    const shown = await call(getConnection, "GET", `/v1/connections/${conn.id}`, { key, params: { id: conn.id } });
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ carrier_name: "dhl_express", carrier_id: "dhl-main" });
    expect(JSON.stringify(shown.body)).not.toContain(DHL_CREDENTIALS.password);

    const bad = await call(createConnection, "POST", "/v1/connections", {
      key,
      body: {
        carrier_name: "dhl_express",
        carrier_id: "dhl-bad",
        credentials: { username: "u", account_number: "12-34", api_key: "k" },
        config: { label_stock: "4x8" },
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(
      ["config.label_stock", "credentials.account_number", "credentials.api_key", "credentials.password"].sort(),
    );
  });
});

describe("DHL Express through the proxy endpoints", () => {
  it("rates and buys an international label with customs; the label is DHL's PDF and the number tracks", async () => {
    const { key } = await dhlOrg();
    const offered = await call(rates, "POST", "/v1/proxy/rates", {
      key,
      body: rateRequest({ carrier_ids: ["dhl-main"], recipient: london }),
    });
    expect(offered.status).toBe(200);
    const quotes = offered.body.rates as { id: string; service: string; carrier_name: string; total_charge: number }[];
    expect(quotes.map((r) => r.service)).toEqual(["P", "Y", "E"]);
    expect(quotes.every((r) => r.carrier_name === "dhl_express")).toBe(true);

    const bought = await call(shipping, "POST", "/v1/proxy/shipping", {
      key,
      body: {
        ...rateRequest({ recipient: london }),
        rates: quotes,
        selected_rate_id: quotes[0]!.id,
        reference: "ORDER-1001",
        customs,
      },
    });
    expect(bought.status).toBe(200);
    expect(bought.body).toMatchObject({ status: "purchased", carrier_name: "dhl_express", service: "P" });
    expect(bought.body.tracking_number).toMatch(/^\d{10}$/);
    expect((await PDFDocument.load(labelBytes(bought.body.label))).getPageCount()).toBe(1);
    const sent = JSON.parse(calls("ship")[0]!.body);
    expect(sent.customerReferences).toEqual([{ value: "ORDER-1001", typeCode: "CU" }]);
    expect(sent.valueAddedServices).toEqual([{ serviceCode: "WY" }]);

    const n = bought.body.tracking_number;
    const tracked = await call(track, "GET", `/v1/proxy/tracking/dhl_express/${n}`, {
      key,
      params: { carrier_name: "dhl_express", tracking_number: n },
    });
    expect(tracked.status).toBe(200);
    expect(tracked.body.tracking).toMatchObject({ carrier_name: "dhl_express", tracking_number: n, status: "pending" });

    const unknown = dhlEmulatorNumber({ scenario: 9 });
    const missing = await call(track, "GET", `/v1/proxy/tracking/dhl_express/${unknown}`, {
      key,
      params: { carrier_name: "dhl_express", tracking_number: unknown },
    });
    expect(missing.status).toBe(404);
    expect(missing.body.messages[0]).toMatchObject({ carrier_name: "dhl_express", code: "tracking_not_found" });
  });

  it("answers a DHL outage as the carrier's messages, never a 500", async () => {
    const { key } = await dhlOrg();
    emulator.current.set("dhl_express", { fault: { kind: "status", status: 503 } });
    const res = await call(rates, "POST", "/v1/proxy/rates", {
      key,
      body: rateRequest({ carrier_ids: ["dhl-main"], recipient: london }),
    });
    expect(res.status).toBeLessThan(500);
    expect(res.body.messages[0]).toMatchObject({ carrier_name: "dhl_express", code: "carrier_unavailable" });
  });
});

describe("DHL Express through the managed endpoints", () => {
  it("creates, purchases, serves the label and the documents", async () => {
    const { key } = await dhlOrg();
    const s = await createShipmentFor(key, { carrier_ids: ["dhl-main"], recipient: london, customs });
    const bought = await purchaseFor(key, s);
    expect(bought.status).toBe(200);
    expect(bought.body.shipment).toMatchObject({ status: "purchased", carrier_name: "dhl_express" });

    const url = `/v1/shipments/${s.id}/label`;
    const file = await label(new Request(`http://localhost${url}`, { headers: { Authorization: `Token ${key}` } }), {
      params: Promise.resolve({ id: s.id }),
    });
    expect(file.status).toBe(200);
    expect((await PDFDocument.load(new Uint8Array(await file.arrayBuffer()))).getPageCount()).toBe(1);

    const docs = await call(listDocuments, "GET", `/v1/shipments/${s.id}/documents`, { key, params: { id: s.id } });
    expect(docs.status).toBe(200);
    expect(JSON.stringify(docs.body)).toContain("waybill");
    expect(JSON.stringify(docs.body)).toContain("commercial_invoice");
  });

  it("a DHL cancel after purchase: 200 cancelled with DHL's note that nothing is charged, never a 500", async () => {
    const { key } = await dhlOrg();
    const s = await createShipmentFor(key, { carrier_ids: ["dhl-main"], recipient: london, customs });
    const bought = await purchaseFor(key, s);
    expect(bought.status).toBe(200);
    const before = emulator.current.calls.length;

    const cancelled = await call(cancel, "POST", `/v1/shipments/${s.id}/cancel`, { key, params: { id: s.id } });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.shipment.status).toBe("cancelled");
    const warning = {
      carrier_name: "dhl_express",
      carrier_id: "dhl-main",
      code: "not_supported",
      level: "warning",
      message: `DHL Express labels cannot be voided through its API: the shipment is cancelled here only. ${dhlExpressAdapter.unvoidable_note}`,
      details: {},
    };
    expect(cancelled.body.messages).toEqual([warning]);
    expect(cancelled.body.messages[0].message).toMatch(/bills a shipment only once it scans the parcel/);
    // Nothing was sent to DHL: MyDHL has no call that cancels a shipment.
    expect(emulator.current.calls.length).toBe(before);

    // A repeated cancel settles the same way: the cancelled shipment again, still nothing sent to DHL.
    const again = await call(cancel, "POST", `/v1/shipments/${s.id}/cancel`, { key, params: { id: s.id } });
    expect(again.status).toBe(200);
    expect(again.body.shipment.status).toBe("cancelled");
    expect(emulator.current.calls.length).toBe(before);
  });
});

describe("background refresh of DHL Express trackers", () => {
  it("refreshes each tracker with a call of its own (MyDHL's single tracking), statuses from DHL's codes", async () => {
    // DHL's budget is 50 calls a minute; the test's connection may go faster.
    const { orgId, conn } = await dhlOrg({ refresh_requests_per_minute: 6000 });
    const soldAt = new Date(Date.now() - 40 * 3_600_000);
    const numbers = [0, 1, 2].map((scenario) => dhlEmulatorNumber({ soldAt, serial: scenario, scenario }));
    const unknown = dhlEmulatorNumber({ soldAt, serial: 4, scenario: 9 });
    const ids = await seedDueTrackers(orgId, conn.id, [...numbers, unknown]);
    const report = await refreshConnection({ ctx: await systemCtx(), connectionId: conn.id });
    // The number DHL does not know is a failed refresh (tracking_not_found), the others are refreshed.
    expect(report).toMatchObject({ due: 4, requests: 4, refreshed: 3, failed: 1 });
    expect(calls("track")).toHaveLength(4);
    const rows = new Map((await trackerRows(ids)).map((r) => [r.trackingNumber, r]));
    expect(rows.get(numbers[0]!)).toMatchObject({ status: "delivered", nextRefreshAt: null });
    expect(rows.get(numbers[1]!)!.status).toBe("on_hold");
    expect(rows.get(numbers[2]!)!.status).toBe("delivery_failed");
    expect(rows.get(unknown)!.status).toBe("pending");
  });
});
