import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { PDFDocument } from "pdf-lib";
import { GET as getConnection } from "@/app/v1/connections/[id]/route";
import { POST as createConnection } from "@/app/v1/connections/route";
import { POST as rates } from "@/app/v1/proxy/rates/route";
import { POST as shipping } from "@/app/v1/proxy/shipping/route";
import { GET as track } from "@/app/v1/proxy/tracking/[carrier_name]/[tracking_number]/route";
import { POST as createShipment } from "@/app/v1/shipments/route";
import { POST as purchase } from "@/app/v1/shipments/[id]/purchase/route";
import { GET as getShipment } from "@/app/v1/shipments/[id]/route";
import { GET as label } from "@/app/v1/shipments/[id]/label/route";
import { POST as cancel } from "@/app/v1/shipments/[id]/cancel/route";
import { GET as getTracker } from "@/app/v1/trackers/[id]/route";
import { POST as refreshTracker } from "@/app/v1/trackers/[id]/refresh/route";
import { getDb } from "@/lib/db/client";
import { trackers } from "@/lib/db/schema";
import { refreshConnection } from "@/lib/trackers/refresh/refresh-connection";
import { atDeadline, fakeTimeouts } from "@/test/clock";
import { addConnection, useCarrierEmulator } from "@/test/emulator-helpers";
import type { Operation } from "@/test/emulator/server";
import { isValidUpsTrackingNumber } from "@/test/emulator/ups-tracking";
import { UPS_CREDENTIALS } from "@/test/ups-context";
import { call, makeOrg, systemCtx } from "./helpers";

/**
 * UPS end to end: the API's routes with a `ups` connection, the service aimed at the carrier emulator
 * (CARRIER_EMULATOR_URL), as a user with UPS credentials would use it. The emulator's clock can be moved forward
 * so parcels travel.
 */

const lab = useCarrierEmulator();

const calls = (operation: Operation) =>
  lab.current.calls.filter((c) => c.carrier === "ups" && c.operation === operation);

const chicago = {
  person_name: "Ada Shipper",
  company_name: "Acme Warehouse",
  address_line1: "500 Industrial Way",
  city: "Chicago",
  state_code: "IL",
  postal_code: "60607",
  country_code: "US",
  phone_number: "+1 312 555 0100",
};
const austin = {
  person_name: "Bob Receiver",
  address_line1: "12 Elm Street",
  address_line2: "Apt 4",
  city: "Austin",
  state_code: "TX",
  postal_code: "78701",
  country_code: "US",
  residential: true,
};
const london = {
  person_name: "Clara Importer",
  company_name: "Importer Ltd",
  address_line1: "10 Downing Street",
  city: "London",
  postal_code: "SW1A 2AA",
  country_code: "GB",
  phone_number: "+44 20 7946 0000",
};
const parcel = { weight: 2.5, weight_unit: "KG", length: 30, width: 20, height: 15, dimension_unit: "CM" };
const customs = {
  content_type: "merchandise",
  incoterm: "DDP",
  invoice: "INV-77",
  commercial_invoice: true,
  commodities: [
    {
      description: "Cotton T-shirts",
      quantity: 3,
      value_amount: 20,
      value_currency: "USD",
      weight: 0.2,
      weight_unit: "KG",
      hs_code: "6109.10",
      origin_country: "US",
      sku: "TS-1",
    },
  ],
};

const domestic = (extra: Record<string, unknown> = {}) => ({
  shipper: chicago,
  recipient: austin,
  parcels: [parcel],
  carrier_ids: ["ups-main"],
  ...extra,
});
const international = (extra: Record<string, unknown> = {}) => domestic({ recipient: london, ...extra });

async function upsOrg(credentials: Record<string, unknown> = UPS_CREDENTIALS) {
  const org = await makeOrg();
  const conn = await addConnection(org.key, {
    carrier_name: "ups",
    carrier_id: "ups-main",
    credentials,
    test_mode: true,
  });
  return { ...org, connectionId: conn.id };
}

async function quote(key: string, body: Record<string, unknown>) {
  const res = await call(rates, "POST", "/v1/proxy/rates", { key, body });
  expect(res.status).toBe(200);
  return res.body.rates as { id: string; service: string; carrier_name: string; total_charge: number }[];
}

const labelBytes = (text: string) => Buffer.from(text.replace(/\n/g, ""), "base64");

describe("a UPS connection", () => {
  it("is created with validated credentials that are never answered back", async () => {
    const { key } = await makeOrg();
    const bad = await call(createConnection, "POST", "/v1/connections", {
      key,
      body: {
        carrier_name: "ups",
        carrier_id: "ups-bad",
        credentials: { ...UPS_CREDENTIALS, account_number: "A1B2C" },
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).toContain("credentials.account_number");
    const unknownKey = await call(createConnection, "POST", "/v1/connections", {
      key,
      body: { carrier_name: "ups", carrier_id: "ups-bad", credentials: UPS_CREDENTIALS, config: { negotiated: true } },
    });
    expect(unknownKey.status).toBe(400);

    const created = await call(createConnection, "POST", "/v1/connections", {
      key,
      body: {
        carrier_name: "ups",
        carrier_id: "ups-main",
        credentials: UPS_CREDENTIALS,
        config: { negotiated_rates: false },
      },
    });
    expect(created.status).toBe(201);
    expect(JSON.stringify(created.body)).not.toContain(UPS_CREDENTIALS.client_secret);
    expect(JSON.stringify(created.body)).not.toContain(UPS_CREDENTIALS.client_id);
    const read = await call(getConnection, "GET", `/v1/connections/${created.body.id}`, {
      key,
      params: { id: created.body.id },
    });
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.body)).not.toContain(UPS_CREDENTIALS.client_secret);
    expect(read.body).toMatchObject({
      carrier_name: "ups",
      carrier_id: "ups-main",
      config: { negotiated_rates: false },
    });
  });
});

describe("UPS through the proxy endpoints", () => {
  it("rates, buys a domestic label and tracks it", async () => {
    const { key } = await upsOrg();
    const offered = await quote(key, domestic());
    expect(offered.map((r) => r.service)).toEqual(["03", "12", "02", "59", "13", "01", "14"]);
    expect(offered.every((r) => r.carrier_name === "ups")).toBe(true);

    const bought = await call(shipping, "POST", "/v1/proxy/shipping", {
      key,
      body: { ...domestic(), rates: offered, selected_rate_id: offered[0]!.id, reference: "ORDER-9" },
    });
    expect(bought.status).toBe(200);
    expect(bought.body).toMatchObject({ status: "purchased", carrier_name: "ups", service: "03", label_type: "PDF" });
    expect(isValidUpsTrackingNumber(bought.body.tracking_number)).toBe(true);
    expect((await PDFDocument.load(labelBytes(bought.body.label))).getPageCount()).toBe(1);

    const n = bought.body.tracking_number;
    const tracked = await call(track, "GET", `/v1/proxy/tracking/ups/${n}`, {
      key,
      params: { carrier_name: "ups", tracking_number: n },
    });
    expect(tracked.status).toBe(200);
    expect(tracked.body.tracking).toMatchObject({ carrier_name: "ups", tracking_number: n, status: "pending" });
    expect(calls("token")).toHaveLength(1);
  });

  it("an unknown UPS number is a 404 with tracking_not_found", async () => {
    const { key } = await upsOrg();
    const res = await call(track, "GET", "/v1/proxy/tracking/ups/1ZA1B2C30376543213", {
      key,
      params: { carrier_name: "ups", tracking_number: "1ZA1B2C30376543213" },
    });
    expect(res.status).toBe(404);
    expect(res.body.messages[0]).toMatchObject({ code: "tracking_not_found", carrier_name: "ups" });
  });

  it("buys an international label with customs; the invoice reaches UPS", async () => {
    const { key } = await upsOrg();
    const offered = await quote(key, international({ options: { declared_value: 60 } }));
    const saver = offered.find((r) => r.service === "65")!;
    const registered = {
      ...customs,
      tax_registrations: { recipient: [{ type: "eori", number: "GB 123456789000" }] },
    };
    const res = await call(shipping, "POST", "/v1/proxy/shipping", {
      key,
      body: { ...international(), customs: registered, rates: offered, selected_rate_id: saver.id, label_type: "ZPL" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ carrier_name: "ups", service: "65", label_type: "ZPL" });
    expect(labelBytes(res.body.label).toString("utf8")).toContain(res.body.tracking_number);
    const shipment = JSON.parse(calls("ship")[0]!.body).ShipmentRequest.Shipment;
    expect(shipment.ShipmentServiceOptions.InternationalForms).toMatchObject({
      InvoiceNumber: "INV-77",
      TermsOfShipment: "DDP",
      Product: [{ Description: ["Cotton T-shirts"], CommodityCode: "610910", PartNumber: "TS-1" }],
    });
    expect(shipment.PaymentInformation.ShipmentCharge.map((c: { Type: string }) => c.Type)).toEqual(["01", "02"]);
    // The recipient's EORI, typed in the API, reaches UPS as the consignee's.
    expect(shipment.GlobalTaxInformation.AgentTaxIdentificationNumber).toMatchObject([
      {
        AgentRole: "30",
        TaxIdentificationNumber: [
          { IdentificationNumber: "GB123456789000", IDNumberTypeCode: "1002", IDNumberPurposeCode: "02" },
        ],
      },
    ]);
  });

  it("refuses an international label without customs (422 naming customs) and buys nothing", async () => {
    const { key } = await upsOrg();
    const offered = await quote(key, international());
    const res = await call(shipping, "POST", "/v1/proxy/shipping", {
      key,
      body: { ...international(), rates: offered, selected_rate_id: offered[0]!.id },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ code: "customs_required", field: "customs" });
    expect(calls("ship")).toHaveLength(0);
  });

  it("a UPS outage is the carrier's failure in messages, never a 500", async () => {
    const { key } = await upsOrg();
    lab.current.set("ups", { fault: { kind: "status", status: 503 } });
    const res = await call(rates, "POST", "/v1/proxy/rates", { key, body: domestic() });
    expect(res.status).toBe(424);
    expect(res.body.messages[0]).toMatchObject({ carrier_name: "ups", code: "carrier_unavailable" });
  });

  it("UPS hanging past the connection's deadline_ms is carrier_timeout, in time", async () => {
    const { key } = await makeOrg();
    await addConnection(key, {
      carrier_name: "ups",
      carrier_id: "ups-main",
      credentials: UPS_CREDENTIALS,
      config: { deadline_ms: 300 },
      test_mode: true,
    });
    lab.current.set("ups", { fault: { kind: "hang" }, fault_operations: ["rate"] });
    fakeTimeouts();
    const rated = call(rates, "POST", "/v1/proxy/rates", { key, body: domestic() });
    const res = await atDeadline(rated, () => lab.current.calls.some((c) => c.operation === "rate"), 300);
    expect(res.status).toBe(424);
    expect(res.body.messages[0]).toMatchObject({ carrier_name: "ups", code: "carrier_timeout" });
  });
});

describe("UPS through the managed endpoints", () => {
  it("create → purchase → label, then the tracker follows the parcel", async () => {
    const { key, connectionId } = await upsOrg();
    const created = await call(createShipment, "POST", "/v1/shipments", { key, body: domestic({ reference: "M-1" }) });
    expect(created.status).toBe(201);
    const ground = created.body.rates.find((r: { service: string }) => r.service === "03");
    expect(ground).toMatchObject({ carrier_name: "ups", carrier_id: "ups-main" });

    const bought = await call(purchase, "POST", `/v1/shipments/${created.body.id}/purchase`, {
      key,
      params: { id: created.body.id },
      body: { selected_rate_id: ground.id },
    });
    expect(bought.status).toBe(200);
    const shipment = bought.body.shipment;
    expect(shipment).toMatchObject({ status: "purchased", carrier_name: "ups", service: "03" });
    expect(isValidUpsTrackingNumber(shipment.tracking_number)).toBe(true);

    const file = await label(
      new Request(`http://localhost/v1/shipments/${shipment.id}/label`, { headers: { Authorization: `Token ${key}` } }),
      { params: Promise.resolve({ id: shipment.id }) },
    );
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/pdf");
    expect(
      Buffer.from(await file.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");

    // The tracker moves with the parcel: 8 h on, UPS has it in transit.
    lab.skewMs = 8 * 3_600_000;
    const refreshed = await call(refreshTracker, "POST", `/v1/trackers/${shipment.tracker_id}/refresh`, {
      key,
      params: { id: shipment.tracker_id },
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toMatchObject({ status: "in_transit", carrier_name: "ups" });
    expect(refreshed.body.events.length).toBeGreaterThanOrEqual(3);

    // The background refresh asks UPS for the connection's due trackers (none due yet: it was just refreshed).
    const report = await refreshConnection({ ctx: await systemCtx(), connectionId });
    expect(report.failed).toBe(0);
  });

  it("cancelling a purchased label voids it at UPS", async () => {
    const { key } = await upsOrg();
    const created = await call(createShipment, "POST", "/v1/shipments", { key, body: domestic() });
    const ground = created.body.rates.find((r: { service: string }) => r.service === "03");
    const bought = await call(purchase, "POST", `/v1/shipments/${created.body.id}/purchase`, {
      key,
      params: { id: created.body.id },
      body: { selected_rate_id: ground.id },
    });
    const shipment = bought.body.shipment;
    const res = await call(cancel, "POST", `/v1/shipments/${shipment.id}/cancel`, { key, params: { id: shipment.id } });
    expect(res.status).toBe(200);
    expect(res.body.shipment.status).toBe("cancelled");
    expect(calls("void")).toHaveLength(1);
    expect(calls("void")[0]!.path).toBe(`/api/shipments/v2409/void/cancel/${shipment.shipment_identifier}`);
    const tracker = await call(getTracker, "GET", `/v1/trackers/${shipment.tracker_id}`, {
      key,
      params: { id: shipment.tracker_id },
    });
    expect(tracker.body.status).toBe("cancelled");
  });

  it("a cancellation UPS answers with the package not voided fails, and the shipment stays purchased", async () => {
    const { key } = await upsOrg({ ...UPS_CREDENTIALS, account_number: "NOVOID" });
    const created = await call(createShipment, "POST", "/v1/shipments", { key, body: domestic() });
    const ground = created.body.rates.find((r: { service: string }) => r.service === "03");
    const bought = await call(purchase, "POST", `/v1/shipments/${created.body.id}/purchase`, {
      key,
      params: { id: created.body.id },
      body: { selected_rate_id: ground.id },
    });
    const shipment = bought.body.shipment;
    const res = await call(cancel, "POST", `/v1/shipments/${shipment.id}/cancel`, { key, params: { id: shipment.id } });
    expect(res.status).toBe(424);
    expect(res.body.messages[0]).toMatchObject({
      carrier_name: "ups",
      code: "UPS_NOT_VOIDED",
      details: { not_voided: [shipment.tracking_number] },
    });
    const after = await call(getShipment, "GET", `/v1/shipments/${shipment.id}`, { key, params: { id: shipment.id } });
    expect(after.body.status).toBe("purchased");
  });

  // Next Day Air, due 24 h after the sale; the emulator picks the journey from the shipment's reference.
  it.each([
    ["attempt", 30, "delivery_failed", "delivery_failed"],
    ["delay", 14, "delivery_delayed", "needs_attention"],
    ["return", 90, "return_to_sender", "delivery_failed"],
    ["lost", 20, "lost", "lost"],
  ])(
    "a refresh follows the %s journey: the tracker and its shipment say so",
    async (journey, hours, tracker, shipment) => {
      const { key } = await upsOrg();
      const created = await call(createShipment, "POST", "/v1/shipments", {
        key,
        body: domestic({ reference: `JOURNEY-${journey}` }),
      });
      const nextDay = created.body.rates.find((r: { service: string }) => r.service === "01");
      const bought = await call(purchase, "POST", `/v1/shipments/${created.body.id}/purchase`, {
        key,
        params: { id: created.body.id },
        body: { selected_rate_id: nextDay.id },
      });
      expect(bought.status).toBe(200);
      const { id, tracker_id } = bought.body.shipment;
      lab.skewMs = hours * 3_600_000;
      const refreshed = await call(refreshTracker, "POST", `/v1/trackers/${tracker_id}/refresh`, {
        key,
        params: { id: tracker_id },
      });
      expect(refreshed.status).toBe(200);
      expect(refreshed.body.status).toBe(tracker);
      // A lost parcel is final: never asked about again, and promised for no day.
      if (tracker === "lost") expect(refreshed.body).toMatchObject({ next_refresh_at: null, estimated_delivery: null });
      else expect(refreshed.body.next_refresh_at).not.toBeNull();
      const after = await call(getShipment, "GET", `/v1/shipments/${id}`, { key, params: { id } });
      expect(after.body.status).toBe(shipment);
    },
  );

  it("the background refresh follows a due UPS tracker to delivered", async () => {
    const { key, connectionId } = await upsOrg();
    const created = await call(createShipment, "POST", "/v1/shipments", { key, body: domestic() });
    const ground = created.body.rates.find((r: { service: string }) => r.service === "03");
    const { shipment } = (
      await call(purchase, "POST", `/v1/shipments/${created.body.id}/purchase`, {
        key,
        params: { id: created.body.id },
        body: { selected_rate_id: ground.id },
      })
    ).body;
    lab.skewMs = 10 * 24 * 3_600_000;
    const db = await getDb();
    await db
      .update(trackers)
      .set({ nextRefreshAt: new Date(Date.now() - 1000) })
      .where(eq(trackers.id, shipment.tracker_id));
    const report = await refreshConnection({ ctx: await systemCtx(db), connectionId });
    expect(report).toMatchObject({ due: 1, refreshed: 1, failed: 0 });
    const tracker = await call(getTracker, "GET", `/v1/trackers/${shipment.tracker_id}`, {
      key,
      params: { id: shipment.tracker_id },
    });
    expect(tracker.body).toMatchObject({ status: "delivered", delivered: true });
  });
});
