import { describe, expect, it } from "vitest";
import { PDFDocument } from "pdf-lib";
import { invokeCarrier } from "@/lib/carriers/invoke";
import { hasCode, type CarrierAdapter, type ConnectionInfo } from "@/lib/carriers/types";
import type { AdapterContext, AdapterMessage } from "@/lib/carriers/types";
import { dhlCheckDigit, dhlEmulatorNumber } from "@/test/emulator/dhl_express";
import { atDeadline, fakeTimeouts, pastRetryPauses, useRealTimersAfterEach } from "@/test/clock";
import { useCarrierEmulator } from "@/test/emulator-helpers";
import { testParcel } from "@/test/sandbox-context";
import {
  DHL_CREDENTIALS,
  dhlCustoms,
  dhlDomesticRate,
  dhlDomesticShip,
  dhlInternationalRate,
  dhlInternationalShip,
} from "@/test/dhl-context";

/**
 * The DHL Express adapter against the emulator's MyDHL, through invokeCarrier as the service runs it: Basic auth on
 * every call, every request and answer held to DHL's own OpenAPI file, and every fault switch ending in the
 * contract's code, never a plain error.
 */

const emulator = useCarrierEmulator();
useRealTimersAfterEach();
let connections = 0;

function connection(config: Record<string, unknown> = {}, credentials = DHL_CREDENTIALS): ConnectionInfo {
  return {
    id: `car_dhlemu${++connections}`,
    carrier_name: "dhl_express",
    carrier_id: "dhl",
    test_mode: true,
    config,
    credentials,
  };
}

type Run<T> = (a: CarrierAdapter, ctx: AdapterContext) => Promise<{ data: T; messages: AdapterMessage[] }>;
const invoke = <T>(conn: ConnectionInfo, op: "rates" | "ship" | "track", run: Run<T>) =>
  invokeCarrier(conn, op, undefined, run);
const rate = (conn = connection(), req = dhlInternationalRate()) => invoke(conn, "rates", (a, ctx) => a.rate(ctx, req));
const calls = (operation: string) => emulator.current.calls.filter((c) => c.operation === operation);

describe("DHL Express adapter against the emulator", () => {
  it("rates in the billing currency with surcharges and transit days, ships, tracks the waybill", async () => {
    const conn = connection();
    const quotes = await rate(conn);
    expect(quotes.ok).toBe(true);
    if (!quotes.ok) return;
    expect(quotes.data.map((q) => q.service)).toEqual(["P", "Y", "E"]);
    for (const q of quotes.data) {
      expect(q.currency).toBe("USD");
      expect(q.total_charge).toBeCloseTo(q.base_charge + q.extra_charges.reduce((s, c) => s + c.amount, 0), 2);
      expect(q.extra_charges.map((c) => c.name)).toEqual(["EMERGENCY SITUATION", "FUEL SURCHARGE"]);
      expect(q.transit_days).toBeGreaterThan(0);
      expect(q.estimated_delivery).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    const sent = calls("rate")[0]!;
    expect(sent.headers.authorization).toBe(
      `Basic ${Buffer.from(`${DHL_CREDENTIALS.username}:${DHL_CREDENTIALS.password}`).toString("base64")}`,
    );
    expect(JSON.parse(sent.body)).toMatchObject({
      accounts: [{ typeCode: "shipper", number: "123456789" }],
      isCustomsDeclarable: true,
      unitOfMeasurement: "metric",
      monetaryAmount: [{ typeCode: "declaredValue", value: 120, currency: "USD" }],
    });
    expect(JSON.parse(sent.body).plannedShippingDateAndTime).toMatch(/^\d{4}-\d{2}-\d{2}T17:00:00 GMT-0[56]:00$/);

    const shipped = await invoke(conn, "ship", (a, ctx) => a.ship(ctx, dhlInternationalShip()));
    expect(shipped.ok).toBe(true);
    if (!shipped.ok) return;
    const n = shipped.data.tracking_number;
    expect(n).toMatch(/^\d{10}$/);
    expect(dhlCheckDigit(n.slice(0, 9))).toBe(Number(n[9]));
    expect((await PDFDocument.load(shipped.data.label.bytes)).getPageCount()).toBe(1);
    expect(shipped.data.documents.map((d) => [d.type, d.format, d.name])).toEqual([
      ["waybill", "PDF", "waybillDoc"],
      ["commercial_invoice", "PDF", "invoice"],
    ]);
    expect(shipped.data.charge).toMatchObject({
      service: "P",
      currency: "USD",
      total_charge: quotes.data[0]!.total_charge,
    });
    expect(shipped.messages).toEqual([]);

    const tracked = await invoke(conn, "track", (a, ctx) => a.track(ctx, n));
    expect(tracked.ok && tracked.data).toMatchObject({ status: "pending", events: [] });
  });

  it("sends customs as DHL's export declaration, with Paperless Trade (WY) and registrations", async () => {
    const request = dhlInternationalShip();
    const shipped = await invoke(connection(), "ship", (a, ctx) =>
      a.ship(ctx, {
        ...request,
        customs: {
          ...request.customs!,
          incoterm: "DDP",
          tax_registrations: {
            shipper: [{ type: "ein", number: "12-3456789", issuing_country: null }],
            recipient: [{ type: "eori", number: "GB123456789000", issuing_country: null }],
          },
        },
      }),
    );
    expect(shipped.ok).toBe(true);
    const sent = JSON.parse(calls("ship")[0]!.body);
    expect(calls("ship")[0]!.path).toBe("/shipments");
    expect(sent.valueAddedServices).toEqual([{ serviceCode: "WY" }, { serviceCode: "DD" }]);
    expect(sent.content).toMatchObject({
      isCustomsDeclarable: true,
      incoterm: "DDP",
      declaredValue: 120,
      declaredValueCurrency: "USD",
      exportDeclaration: {
        invoice: { number: "INV-2024-0042", date: "2024-03-04", signatureName: "Ada Shipper" },
        exportReasonType: "commercial_purpose_or_sale",
        lineItems: [
          {
            number: 1,
            description: "Loose leaf green tea",
            price: 12.5,
            quantity: { value: 4, unitOfMeasurement: "PCS" },
            commodityCodes: [{ typeCode: "outbound", value: "090210" }],
            manufacturerCountry: "CN",
            weight: { netValue: 1, grossValue: 1 },
          },
          { number: 2, manufacturerCountry: "US", weight: { netValue: 1.2, grossValue: 1.2 } },
        ],
      },
    });
    expect(sent.customerDetails.shipperDetails.registrationNumbers).toEqual([
      { typeCode: "EIN", number: "12-3456789", issuerCountryCode: "US" },
    ]);
    expect(sent.customerDetails.receiverDetails.registrationNumbers).toEqual([
      { typeCode: "EOR", number: "GB123456789000", issuerCountryCode: "GB" },
    ]);
  });

  it("where the lane does not allow Paperless Trade, ships without it and says to print the invoice", async () => {
    const request = dhlInternationalShip();
    const shipped = await invoke(connection(), "ship", (a, ctx) =>
      a.ship(ctx, {
        ...request,
        recipient: { ...request.recipient, country_code: "BR", city: "Sao Paulo", postal_code: "01310-100" },
      }),
    );
    expect(shipped.ok).toBe(true);
    expect(calls("ship")[0]!.path).toBe("/shipments");
    expect(shipped.messages).toMatchObject([{ code: "DHL_PAPERLESS_NOT_TAKEN", level: "warning" }]);
    if (shipped.ok) expect(shipped.data.documents.map((d) => d.type)).toContain("commercial_invoice");
  });

  it("without the electronic invoice (or with the connection's paperless_trade off), no WY: the invoice is printed", async () => {
    const paper = await invoke(connection(), "ship", (a, ctx) =>
      a.ship(ctx, dhlInternationalShip({ customs: dhlCustoms({ commercial_invoice: false }) })),
    );
    expect(paper.ok && paper.data.documents.map((d) => d.type)).toEqual(["waybill", "commercial_invoice"]);
    expect(JSON.parse(calls("ship")[0]!.body).valueAddedServices).toBeUndefined();
    const off = await invoke(connection({ paperless_trade: false }), "ship", (a, ctx) =>
      a.ship(ctx, dhlInternationalShip()),
    );
    expect(off.ok).toBe(true);
    expect(JSON.parse(calls("ship")[1]!.body).valueAddedServices).toBeUndefined();
    expect(off.messages).toEqual([]);
  });

  it("ships a domestic ZPL label with no customs and no invoice; the recipient takes the shipper's phone", async () => {
    const shipped = await invoke(connection(), "ship", (a, ctx) => a.ship(ctx, dhlDomesticShip({ label_type: "ZPL" })));
    expect(shipped.ok).toBe(true);
    if (!shipped.ok) return;
    expect(new TextDecoder().decode(shipped.data.label.bytes).startsWith("^XA")).toBe(true);
    expect(shipped.data.documents.map((d) => [d.type, d.format])).toEqual([["waybill", "ZPL"]]);
    const sent = JSON.parse(calls("ship")[0]!.body);
    expect(sent.content).toMatchObject({ isCustomsDeclarable: false, incoterm: "DAP" });
    expect(sent.content.exportDeclaration).toBeUndefined();
    expect(sent.customerDetails.receiverDetails.contactInformation.phone).toBe("+49 30 1234567");
    const domestic = await rate(connection(), dhlDomesticRate());
    expect(domestic.ok && domestic.data.map((q) => [q.service, q.currency, q.transit_days])).toEqual([["N", "EUR", 1]]);
  });

  it("a parcel weighed in pounds and ounces goes imperial (lb and in, three decimals); DHL takes it", async () => {
    const req = dhlInternationalRate({
      parcels: [
        testParcel({ weight: 37, weight_unit: "OZ", length: 9.75, width: 7.3, height: 2, dimension_unit: "IN" }),
      ],
    });
    const res = await rate(connection(), req);
    expect(res.ok).toBe(true);
    expect(JSON.parse(calls("rate")[0]!.body)).toMatchObject({
      unitOfMeasurement: "imperial",
      packages: [{ weight: 2.313, dimensions: { length: 9.75, width: 7.3, height: 2 } }],
    });
  });

  it("a wish for an undeliverable parcel MyDHL cannot take is a warning; the label is bought", async () => {
    const shipped = await invoke(connection(), "ship", (a, ctx) =>
      a.ship(ctx, dhlInternationalShip({ customs: dhlCustoms({ non_delivery: "abandon" }) })),
    );
    expect(shipped.ok).toBe(true);
    expect(shipped.messages).toMatchObject([
      { code: "not_supported", level: "warning", details: { field: "customs.non_delivery" } },
    ]);
  });

  it("documents alone cross the border undeclared: DHL's document products, no export declaration, no invoice", async () => {
    const papers = [testParcel({ weight: 0.5, weight_unit: "KG", is_document: true })];
    const quotes = await rate(connection(), dhlInternationalRate({ parcels: papers }));
    expect(quotes.ok && quotes.data.map((q) => q.service)).toEqual(["D", "T", "K"]);
    expect(JSON.parse(calls("rate")[0]!.body)).toMatchObject({ isCustomsDeclarable: false });
    expect(JSON.parse(calls("rate")[0]!.body).monetaryAmount).toBeUndefined();
    const shipped = await invoke(connection(), "ship", (a, ctx) =>
      a.ship(
        ctx,
        dhlInternationalShip({
          parcels: papers,
          service: "D",
          customs: dhlCustoms({ content_type: "documents", commodities: [] }),
        }),
      ),
    );
    expect(shipped.ok && shipped.data.documents.map((d) => d.type)).toEqual(["waybill"]);
    const sent = JSON.parse(calls("ship")[0]!.body);
    expect(sent.content).toMatchObject({ isCustomsDeclarable: false, description: "Documents" });
    expect(sent.content.exportDeclaration).toBeUndefined();
  });

  it("two parcels: one PDF with a page per piece label, the piece numbers in meta", async () => {
    const request = dhlInternationalShip();
    const shipped = await invoke(connection(), "ship", (a, ctx) =>
      a.ship(ctx, { ...request, parcels: [request.parcels[0]!, request.parcels[0]!] }),
    );
    expect(shipped.ok).toBe(true);
    if (!shipped.ok) return;
    expect((await PDFDocument.load(shipped.data.label.bytes)).getPageCount()).toBe(2);
    expect(shipped.data.meta.piece_tracking_numbers).toHaveLength(2);
  });

  it("tracks journeys newest first from the number: delivered, held, not home; and a not-found number", async () => {
    const soldAt = new Date(Date.now() - 40 * 3_600_000);
    const delivered = dhlEmulatorNumber({ soldAt });
    const res = await invoke(connection(), "track", (a, ctx) => a.track(ctx, delivered));
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.data.status).toBe("delivered");
    expect(res.data.events.map((e) => e.code)).toEqual(["OK", "WC", "AR", "CR", "AF", "DF", "PL", "AF", "PU"]);
    expect(res.data.events[0]!.occurred_at > res.data.events[1]!.occurred_at).toBe(true);
    expect(res.data.meta).toMatchObject({ signed_by: "RECEPTION" });
    expect(calls("track")[0]!.path).toBe(`/shipments/${delivered}/tracking`);

    const held = await invoke(connection(), "track", (a, ctx) =>
      a.track(ctx, dhlEmulatorNumber({ soldAt, scenario: 1 })),
    );
    expect(held.ok && held.data.status).toBe("on_hold");
    const away = await invoke(connection(), "track", (a, ctx) =>
      a.track(ctx, dhlEmulatorNumber({ soldAt, scenario: 2 })),
    );
    expect(away.ok && away.data.status).toBe("delivery_failed");

    const unknown = dhlEmulatorNumber({ scenario: 9 });
    const missing = await invoke(connection(), "track", (a, ctx) => a.track(ctx, unknown));
    expect(missing.ok).toBe(false);
    expect(missing.messages[0]).toMatchObject({ code: "tracking_not_found", message: "No data found" });
  });

  it("refuses a shipment DHL would refuse in DHL's words: a product not sold on the route", async () => {
    const res = await invoke(connection(), "ship", (a, ctx) => a.ship(ctx, dhlInternationalShip({ service: "N" })));
    expect(res.ok).toBe(false);
    expect(res.messages[0]).toMatchObject({ code: "1001", level: "error", details: { status: 400 } });
    expect(res.messages[0]!.message).toMatch(/^The requested product\(s\) \(N\) not available/);
  });
});

describe("DHL Express fault switches give the contract's codes", () => {
  it("503 on rating: retried, then carrier_unavailable in DHL's words", async () => {
    emulator.current.set("dhl_express", { fault: { kind: "status", status: 503 } });
    fakeTimeouts();
    const res = await pastRetryPauses(rate());
    expect(res.ok).toBe(false);
    expect(res.messages[0]).toMatchObject({ code: "carrier_unavailable", carrier_name: "dhl_express" });
    expect(res.messages[0]!.message).toMatch(/^DHL Express is unavailable/);
    expect(calls("rate").length).toBeGreaterThan(1);
  });

  it("500 on shipping: not retried (it could buy twice), carrier_unavailable", async () => {
    emulator.current.set("dhl_express", { fault: { kind: "status", status: 500 }, fault_operations: ["ship"] });
    const res = await invoke(connection(), "ship", (a, ctx) => a.ship(ctx, dhlInternationalShip()));
    expect(hasCode(res.messages, "carrier_unavailable")).toBe(true);
    expect(calls("ship")).toHaveLength(1);
  });

  it("429 with a long Retry-After: carrier_rate_limited with the wait; a short one is waited out", async () => {
    emulator.current.set("dhl_express", { fault: { kind: "rate_limited", retry_after_s: 30 } });
    const limited = await rate();
    expect(limited.messages[0]).toMatchObject({ code: "carrier_rate_limited", details: { retry_after_seconds: 30 } });
    emulator.current.set("dhl_express", { fault: { kind: "rate_limited", retry_after_s: 1 }, fault_times: 1 });
    fakeTimeouts();
    const waited = await pastRetryPauses(rate());
    expect(waited.ok).toBe(true);
  });

  it("a body that is not JSON: carrier_bad_response", async () => {
    emulator.current.set("dhl_express", { fault: { kind: "malformed" } });
    const res = await rate();
    expect(res.ok).toBe(false);
    expect(res.messages[0]!.code).toBe("carrier_bad_response");
  });

  it("an answer that never comes: carrier_timeout at the connection's deadline", async () => {
    emulator.current.set("dhl_express", { fault: { kind: "hang" } });
    fakeTimeouts();
    const res = await atDeadline(rate(connection({ deadline_ms: 400 })), () => calls("rate").length === 1, 400);
    expect(res.messages[0]!.code).toBe("carrier_timeout");
  });

  it("credentials refused (401 on every call, no token to refresh): carrier_auth_failed, asked once", async () => {
    const refused = await rate(connection({}, { ...DHL_CREDENTIALS, password: "invalid" }));
    expect(refused.messages[0]).toMatchObject({ code: "carrier_auth_failed", level: "error" });
    expect(calls("rate")).toHaveLength(1);
    emulator.current.set("dhl_express", { fault: { kind: "status", status: 401 } });
    const faulted = await rate();
    expect(faulted.messages[0]!.code).toBe("carrier_auth_failed");
  });
});

describe("the emulator's DHL checks what DHL checks", () => {
  it("numbers carry DHL Express's check digit (1103733901 is a real one)", () => {
    expect(dhlCheckDigit("110373390")).toBe(1);
    const n = dhlEmulatorNumber({ serial: 3, scenario: 2 });
    expect(dhlCheckDigit(n.slice(0, 9))).toBe(Number(n[9]));
  });

  it("refuses a request outside DHL's schema in problem+json, naming the field, and sells nothing", async () => {
    const auth = `Basic ${Buffer.from("u:p").toString("base64")}`;
    const res = await fetch(`${emulator.current.url}/dhl_express/shipments`, {
      method: "POST",
      headers: { authorization: auth, "content-type": "application/json", "x-version": "3.1.0" },
      body: JSON.stringify({ productCode: "P", pickup: { isRequested: false } }),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const body = (await res.json()) as { status: string; additionalDetails: string[] };
    expect(body.status).toBe("400");
    expect(body.additionalDetails).toEqual(
      expect.arrayContaining([
        "998: plannedShippingDateAndTime: is required",
        "998: accounts: is required",
        "998: customerDetails: is required",
        "998: content: is required",
      ]),
    );
    expect(emulator.current.takeViolations()).toMatchObject([
      { carrier: "dhl_express", operation: "ship", kind: "request" },
    ]);
  });

  it("refuses a rate dated more than 10 days ahead, as the spec says", async () => {
    const far = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
    const res = await rate(
      connection(),
      dhlInternationalRate({ ship_date: { date: far, time_zone: "America/Chicago" } }),
    );
    expect(res.ok).toBe(false);
    expect(res.messages[0]).toMatchObject({ code: "998" });
  });
});
