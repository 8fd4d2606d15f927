import { describe, expect, it, vi } from "vitest";
import { PDFDocument } from "pdf-lib";
import { invokeCarrier } from "@/lib/carriers/invoke";
import { hasCode, type CarrierAdapter, type ConnectionInfo } from "@/lib/carriers/types";
import type { AdapterContext, AdapterMessage } from "@/lib/carriers/types";
import { fedexEmulatorNumber, fedexExpressCheckDigit } from "@/test/emulator/fedex";
import { atDeadline, fakeTimeouts, pastRetryPauses, useRealTimersAfterEach } from "@/test/clock";
import { useCarrierEmulator } from "@/test/emulator-helpers";
import { buildShipRequest } from "@/lib/carriers/fedex/ship";
import { buildRateRequest } from "@/lib/carriers/fedex/rating";
import {
  FEDEX_CREDENTIALS,
  fedexCustoms,
  fedexDomesticRate,
  fedexDomesticShip,
  fedexInternationalShip,
} from "@/test/fedex-context";

/**
 * The FedEx adapter against the emulator's FedEx, through invokeCarrier as the service runs it: the token cached
 * and refreshed once, batches of 30, and every fault switch ending in the contract's code, never a plain error.
 */

const emulator = useCarrierEmulator();
useRealTimersAfterEach();
let connections = 0;

function connection(config: Record<string, unknown> = {}, credentials = FEDEX_CREDENTIALS): ConnectionInfo {
  return {
    id: `car_fedexemu${++connections}`,
    carrier_name: "fedex",
    carrier_id: "fedex",
    test_mode: true,
    config,
    credentials,
  };
}

type Run<T> = (a: CarrierAdapter, ctx: AdapterContext) => Promise<{ data: T; messages: AdapterMessage[] }>;
const invoke = <T>(conn: ConnectionInfo, op: "rates" | "ship" | "void" | "track", run: Run<T>) =>
  invokeCarrier(conn, op, undefined, run);
const rate = (conn = connection()) => invoke(conn, "rates", (a, ctx) => a.rate(ctx, fedexDomesticRate()));
const calls = (operation: string) => emulator.current.calls.filter((c) => c.operation === operation);

describe("FedEx adapter against the emulator", () => {
  it("rates, ships a real label under a checked 12-digit number, tracks it, cancels it twice", async () => {
    const conn = connection();
    const quotes = await rate(conn);
    expect(quotes.ok).toBe(true);
    if (!quotes.ok) return;
    expect(quotes.data.map((q) => q.service)).toEqual([
      "GROUND_HOME_DELIVERY",
      "FEDEX_EXPRESS_SAVER",
      "FEDEX_2_DAY",
      "STANDARD_OVERNIGHT",
      "PRIORITY_OVERNIGHT",
    ]);
    for (const q of quotes.data) {
      expect(q.total_charge).toBeCloseTo(
        q.base_charge - q.discount + q.extra_charges.reduce((s, c) => s + c.amount, 0),
        2,
      );
      expect(q.transit_days).toBeGreaterThan(0);
    }

    const shipped = await invoke(conn, "ship", (a, ctx) => a.ship(ctx, fedexDomesticShip()));
    expect(shipped.ok).toBe(true);
    if (!shipped.ok) return;
    const n = shipped.data.tracking_number;
    expect(n).toMatch(/^7\d{11}$/);
    expect(fedexExpressCheckDigit(n)).toBe(Number(n[11]));
    expect((await PDFDocument.load(shipped.data.label.bytes)).getPageCount()).toBe(1);
    const quoted = quotes.data.find((q) => q.service === "FEDEX_2_DAY")!;
    expect(shipped.data.charge).toMatchObject({ service: "FEDEX_2_DAY", total_charge: quoted.total_charge });

    const tracked = await invoke(conn, "track", (a, ctx) => a.track(ctx, n));
    expect(tracked.ok && tracked.data).toMatchObject({
      status: "pending",
      events: [{ code: "OC", status: "pending" }],
    });

    const voidOf = () => invoke(conn, "void", (a, ctx) => a.void!(ctx, { tracking_number: n, shipment_identifier: n }));
    expect(await voidOf()).toMatchObject({ ok: true, messages: [] });
    const again = await voidOf();
    expect(again.ok).toBe(true);
    expect(again.messages).toMatchObject([{ level: "info", code: "SHIPMENT.ALREADY.CANCELLED" }]);
    const after = await invoke(conn, "track", (a, ctx) => a.track(ctx, n));
    expect(after.ok && after.data.status).toBe("cancelled");
  });

  it("ships internationally with customs and ETD; without customs FedEx refuses in its own words", async () => {
    const conn = connection();
    const shipped = await invoke(conn, "ship", (a, ctx) => a.ship(ctx, fedexInternationalShip({ label_type: "ZPL" })));
    expect(shipped.ok).toBe(true);
    if (!shipped.ok) return;
    expect(new TextDecoder().decode(shipped.data.label.bytes).startsWith("^XA")).toBe(true);
    // The copy of the invoice FedEx transmitted, as a PDF beside the ZPL label.
    expect(shipped.data.documents).toMatchObject([
      { type: "commercial_invoice", format: "PDF", name: "COMMERCIAL_INVOICE" },
    ]);
    expect((await PDFDocument.load(shipped.data.documents[0]!.bytes)).getPageCount()).toBe(1);

    const refused = await invoke(conn, "ship", (a, ctx) => a.ship(ctx, fedexInternationalShip({ customs: null })));
    expect(refused.ok).toBe(false);
    expect(refused.messages[0]).toMatchObject({ code: "CUSTOMSCLEARANCEDETAIL.REQUIRED", level: "error" });
  });

  it("tax registrations go in each party's tins[] with FedEx's tinType; the old federal_tax_id too", async () => {
    const request = fedexInternationalShip();
    const shipped = await invoke(connection(), "ship", (a, ctx) =>
      a.ship(ctx, {
        ...request,
        shipper: { ...request.shipper, federal_tax_id: "12-3456789" },
        customs: {
          ...request.customs!,
          tax_registrations: {
            shipper: [{ type: "ioss", number: "IM2760000742", issuing_country: null }],
            recipient: [
              { type: "cpf", number: "12345678909", issuing_country: "BR" },
              { type: "eori", number: "GB123456789000", issuing_country: null },
            ],
          },
        },
      }),
    );
    expect(shipped.ok).toBe(true);
    const sent = JSON.parse(calls("ship")[0]!.body).requestedShipment;
    expect(sent.shipper.tins).toEqual([
      { number: "IM2760000742", tinType: "BUSINESS_UNION" },
      { number: "12-3456789", tinType: "FEDERAL" },
    ]);
    expect(sent.recipients[0].tins).toEqual([
      { number: "12345678909", tinType: "PERSONAL_NATIONAL" },
      { number: "GB123456789000", tinType: "BUSINESS_UNION" },
    ]);

    // Longer than FedEx's 18 characters: refused before anything is bought.
    const long = await invoke(connection(), "ship", (a, ctx) =>
      a.ship(ctx, {
        ...request,
        customs: {
          ...request.customs!,
          tax_registrations: {
            shipper: [],
            recipient: [{ type: "vat", number: "GB1234567890123456789", issuing_country: null }],
          },
        },
      }),
    );
    expect(long.ok).toBe(false);
    expect(long.messages[0]).toMatchObject({
      code: "not_supported",
      details: { field: "customs.tax_registrations.recipient[0].number", limit: 18 },
    });
    expect(calls("ship")).toHaveLength(1);
  });

  it("a wish for an undeliverable parcel FedEx cannot take is a warning; the label is bought", async () => {
    const request = fedexInternationalShip();
    const shipped = await invoke(connection(), "ship", (a, ctx) =>
      a.ship(ctx, { ...request, customs: { ...request.customs!, non_delivery: "return" } }),
    );
    expect(shipped.ok).toBe(true);
    expect(shipped.messages).toContainEqual(
      expect.objectContaining({ code: "not_supported", level: "warning", details: { field: "customs.non_delivery" } }),
    );
  });

  it("buys labels on the longer stocks a connection chooses: 4×6.75 thermal, 4×8 paper", async () => {
    const zpl = await invoke(connection({ label_stock: "4x6.75" }), "ship", (a, ctx) =>
      a.ship(ctx, fedexDomesticShip({ label_type: "ZPL" })),
    );
    const pdf = await invoke(connection({ label_stock: "4x8" }), "ship", (a, ctx) =>
      a.ship(ctx, fedexDomesticShip({ label_type: "PDF" })),
    );
    expect(zpl.ok && pdf.ok).toBe(true);
    const stocks = calls("ship").map((c) => JSON.parse(c.body).requestedShipment.labelSpecification.labelStockType);
    expect(stocks).toEqual(["STOCK_4X675", "PAPER_4X8"]);
  });

  it("without ETD, asks FedEx for a printable commercial invoice and hands it to the shipper", async () => {
    const conn = connection();
    const request = fedexInternationalShip();
    const shipped = await invoke(conn, "ship", (a, ctx) =>
      a.ship(ctx, { ...request, customs: { ...request.customs!, commercial_invoice: false } }),
    );
    expect(shipped.ok).toBe(true);
    if (!shipped.ok) return;
    expect(shipped.data.documents).toMatchObject([{ type: "commercial_invoice", format: "PDF" }]);
    expect((await PDFDocument.load(shipped.data.documents[0]!.bytes)).getPageCount()).toBe(1);
  });

  it("documents alone cross the border without an invoice", async () => {
    const conn = connection();
    const request = fedexInternationalShip();
    const customs = {
      ...request.customs!,
      commercial_invoice: false,
      content_type: "documents" as const,
      commodities: [],
    };
    const shipped = await invoke(conn, "ship", (a, ctx) => a.ship(ctx, { ...request, customs }));
    expect(shipped.ok).toBe(true);
    if (!shipped.ok) return;
    expect(shipped.data.documents).toEqual([]);
  });

  it("tracks journeys from the number: delivered after a day and a half, and a not-found number", async () => {
    const delivered = fedexEmulatorNumber({ soldAt: new Date(Date.now() - 40 * 3_600_000), serial: 12 });
    const stuck = fedexEmulatorNumber({ soldAt: new Date(Date.now() - 40 * 3_600_000), serial: 13, scenario: 2 });
    const held = fedexEmulatorNumber({ soldAt: new Date(Date.now() - 40 * 3_600_000), serial: 14, scenario: 6 });
    const unknown = fedexEmulatorNumber({ scenario: 9 });
    const res = await invoke(connection(), "track", (a, ctx) => a.trackMany!(ctx, [delivered, stuck, held, unknown]));
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    const status = (n: string) => {
      const r = res.data[n]!;
      return "status" in r ? r.status : r.code;
    };
    expect([delivered, stuck, held, unknown].map(status)).toEqual([
      "delivered",
      "in_transit",
      "ready_for_pickup",
      "tracking_not_found",
    ]);
    const journey = res.data[delivered]!;
    if ("events" in journey) {
      expect(journey.events.map((e) => e.status)).toEqual([
        "delivered",
        "out_for_delivery",
        "in_transit",
        "in_transit",
        "in_transit",
        "picked_up",
        "pending",
      ]);
    }
  });

  it("reuses one token over three calls and fetches exactly one new one after the tokens expire", async () => {
    const conn = connection();
    for (let i = 0; i < 3; i++) expect((await rate(conn)).ok).toBe(true);
    expect(calls("token")).toHaveLength(1);
    emulator.current.expireTokens("fedex");
    for (let i = 0; i < 3; i++) expect((await rate(conn)).ok).toBe(true);
    expect(calls("token")).toHaveLength(2);
    expect(calls("rate").map((c) => c.status)).toEqual([200, 200, 200, 401, 200, 200, 200]);
  });

  it("tracks 45 numbers in two calls", async () => {
    const soldAt = new Date(Date.now() - 10 * 3_600_000);
    const numbers = Array.from({ length: 45 }, (_, i) => fedexEmulatorNumber({ soldAt, serial: 100 + i, scenario: 2 }));
    const res = await invoke(connection(), "track", (a, ctx) => a.trackMany!(ctx, numbers));
    expect(res.ok).toBe(true);
    expect(calls("track")).toHaveLength(2);
    if (res.ok) expect(Object.values(res.data).every((r) => "status" in r && r.status === "in_transit")).toBe(true);
  });
});

describe("FedEx fault switches give the contract's codes", () => {
  it("503 on rating: retried, then carrier_unavailable in FedEx's words", async () => {
    emulator.current.set("fedex", { fault: { kind: "status", status: 503 } });
    const res = await rate();
    expect(res.ok).toBe(false);
    expect(res.messages[0]).toMatchObject({ code: "carrier_unavailable", carrier_name: "fedex" });
    expect(res.messages[0]!.message).toMatch(/^FedEx is unavailable: The service is currently unavailable/);
    expect(calls("rate").length).toBeGreaterThan(1);
  });

  it("500 on shipping: not retried (it could buy twice), carrier_unavailable", async () => {
    emulator.current.set("fedex", { fault: { kind: "status", status: 500 }, fault_operations: ["ship"] });
    const res = await invoke(connection(), "ship", (a, ctx) => a.ship(ctx, fedexDomesticShip()));
    expect(hasCode(res.messages, "carrier_unavailable")).toBe(true);
    expect(calls("ship")).toHaveLength(1);
  });

  it("429 with a long Retry-After: carrier_rate_limited with the wait; a short one is waited out", async () => {
    emulator.current.set("fedex", { fault: { kind: "rate_limited", retry_after_s: 30 } });
    const limited = await rate();
    expect(limited.messages[0]).toMatchObject({ code: "carrier_rate_limited", details: { retry_after_seconds: 30 } });
    emulator.current.set("fedex", { fault: { kind: "rate_limited", retry_after_s: 1 }, fault_times: 1 });
    fakeTimeouts();
    const waited = await pastRetryPauses(rate());
    expect(waited.ok).toBe(true);
  });

  it("a body that is not JSON: carrier_bad_response", async () => {
    emulator.current.set("fedex", { fault: { kind: "malformed" } });
    const res = await rate();
    expect(res.ok).toBe(false);
    expect(res.messages[0]!.code).toBe("carrier_bad_response");
  });

  it("an answer that never comes: carrier_timeout at the connection's deadline", async () => {
    emulator.current.set("fedex", { fault: { kind: "hang" } });
    fakeTimeouts();
    const res = await atDeadline(rate(connection({ deadline_ms: 400 })), () => calls("rate").length === 1, 400);
    expect(res.messages[0]!.code).toBe("carrier_timeout");
  });

  it("401 forever: one retry with a new token, then carrier_auth_failed; a refused key pair too", async () => {
    emulator.current.set("fedex", { fault: { kind: "status", status: 401 } });
    const res = await rate();
    expect(res.messages[0]!.code).toBe("carrier_auth_failed");
    expect(calls("rate")).toHaveLength(2);
    expect(calls("token")).toHaveLength(2);

    emulator.current.reset();
    const refused = await rate(connection({}, { ...FEDEX_CREDENTIALS, secret_key: "invalid" }));
    expect(refused.messages[0]!.code).toBe("carrier_auth_failed");
    expect(calls("rate")).toHaveLength(0);
  });
});

describe("the emulator's FedEx checks what FedEx checks", () => {
  const post = (path: string, body: string, headers: Record<string, string>) =>
    fetch(`${emulator.current.url}/fedex${path}`, { method: "POST", body, headers });
  async function token(): Promise<string> {
    const res = await post("/oauth/token", "grant_type=client_credentials&client_id=a&client_secret=b", {
      "content-type": "application/x-www-form-urlencoded",
    });
    return ((await res.json()) as { access_token: string }).access_token;
  }

  it("numbers carry FedEx Express's check digit (794953535000 is a real one)", () => {
    expect(fedexExpressCheckDigit("79495353500")).toBe(0);
    const n = fedexEmulatorNumber({ serial: 42, scenario: 3 });
    expect(n).toMatch(/^7\d{11}$/);
    expect(fedexExpressCheckDigit(n)).toBe(Number(n[11]));
  });

  it("refuses a token request without client credentials, in FedEx's error shape", async () => {
    const res = await post("/oauth/token", "grant_type=client_credentials", {
      "content-type": "application/x-www-form-urlencoded",
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ errors: [{ code: expect.any(String), message: expect.any(String) }] });
  });

  it("refuses an incomplete ship request by FedEx's schema, naming every field, and sells nothing", async () => {
    const incomplete = {
      accountNumber: { value: "740561073" },
      labelResponseOptions: "LABEL",
      requestedShipment: {
        shipper: { contact: {}, address: {} },
        recipients: [{ contact: { phoneNumber: "5125550100" }, address: {} }],
        pickupType: "USE_SCHEDULED_PICKUP",
        shippingChargesPayment: {},
        labelSpecification: {},
      },
    };
    const res = await post("/ship/v1/shipments", JSON.stringify(incomplete), {
      authorization: `Bearer ${await token()}`,
      "content-type": "application/json",
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: { code: string; parameterList: { value: string }[] }[] };
    const fields = body.errors.map((e) => e.parameterList[0]!.value);
    expect(fields).toEqual(
      expect.arrayContaining([
        "requestedShipment.shipper.address.streetLines",
        "requestedShipment.recipients[0].address.countryCode",
        "requestedShipment.serviceType",
        "requestedShipment.packagingType",
        "requestedShipment.shippingChargesPayment.paymentType",
        "requestedShipment.labelSpecification.imageType",
        "requestedShipment.requestedPackageLineItems",
      ]),
    );
    expect(body.errors.every((e) => e.code === "INVALID.INPUT.EXCEPTION")).toBe(true);
    // The refusal is the carrier's schema's: the emulator records it as the contract broken, and sold nothing.
    const [violation, ...more] = emulator.current.takeViolations();
    expect(more).toEqual([]);
    expect(violation).toMatchObject({ carrier: "fedex", operation: "ship", kind: "request" });
    expect(emulator.current.calls.filter((c) => c.operation === "ship" && c.status === 200)).toEqual([]);
  });

  it("refuses more than 30 numbers in one tracking call", async () => {
    const trackingInfo = Array.from({ length: 31 }, (_, i) => ({
      trackingNumberInfo: { trackingNumber: fedexEmulatorNumber({ serial: i }) },
    }));
    const res = await post("/track/v1/trackingnumbers", JSON.stringify({ includeDetailedScans: true, trackingInfo }), {
      authorization: `Bearer ${await token()}`,
      "content-type": "application/json",
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe(
      "TRACKING.TRACKINGNUMBER.LIMITEXCEEDED",
    );
  });
});

describe("FedEx's prose rules, the adapter's requests and the emulator's checks", () => {
  const toronto = {
    ...fedexInternationalShip().recipient,
    city: "Toronto",
    state_code: "ON",
    postal_code: "M5V 2T6",
    country_code: "CA",
  };
  const settings = {
    accountNumber: "740561073",
    pickupType: "DROPOFF_AT_FEDEX_LOCATION",
    labelStock: "4x6",
    shipDate: "2024-03-04",
    smartPostHubId: "5015",
  } as const;
  const post = async (body: unknown) => {
    const tokenRes = await fetch(`${emulator.current.url}/fedex/oauth/token`, {
      method: "POST",
      body: "grant_type=client_credentials&client_id=a&client_secret=b",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    const { access_token } = (await tokenRes.json()) as { access_token: string };
    const res = await fetch(`${emulator.current.url}/fedex/ship/v1/shipments`, {
      method: "POST",
      body: JSON.stringify(body),
      headers: { authorization: `Bearer ${access_token}`, "content-type": "application/json" },
    });
    return {
      status: res.status,
      codes: ((await res.json()) as { errors?: { code: string }[] }).errors?.map((e) => e.code),
    };
  };

  it("Ground Economy: quoted and bought with the connection's hub, not offered without one", async () => {
    const withHub = connection({ smart_post_hub_id: "5015" });
    const quotes = await rate(withHub);
    expect(quotes.ok && quotes.data.map((q) => q.service)).toContain("SMART_POST");
    const bought = await invoke(withHub, "ship", (a, ctx) => a.ship(ctx, fedexDomesticShip({ service: "SMART_POST" })));
    expect(bought.ok).toBe(true);
    const without = await rate();
    expect(without.ok && without.data.map((q) => q.service)).not.toContain("SMART_POST");

    const body = buildShipRequest(fedexDomesticShip({ service: "SMART_POST" }), settings).body;
    delete (body.requestedShipment as Record<string, unknown>).smartPostInfoDetail;
    expect(await post(body)).toEqual({ status: 400, codes: ["SMARTPOSTDETAIL.REQUIRED"] });
  });

  it("to Canada with subPackagingType, from Canada with the B13A option: bought; without them refused", async () => {
    const conn = connection();
    const toCanada = fedexInternationalShip({ recipient: toronto });
    expect((await invoke(conn, "ship", (a, ctx) => a.ship(ctx, toCanada))).ok).toBe(true);
    const fromCanada = fedexInternationalShip({
      shipper: { ...toronto, person_name: "Ada Shipper", phone_number: "+1 416 555 0100" },
      customs: fedexCustoms({
        eel_pfc: null,
        commodities: [{ ...fedexCustoms().commodities[1]!, value_currency: "CAD" }],
      }),
    });
    expect((await invoke(conn, "ship", (a, ctx) => a.ship(ctx, fromCanada))).ok).toBe(true);

    const noSub = buildShipRequest(toCanada, settings).body;
    for (const p of noSub.requestedShipment.requestedPackageLineItems)
      delete (p as Record<string, unknown>).subPackagingType;
    expect(await post(noSub)).toEqual({ status: 400, codes: ["SUBPACKAGINGTYPE.REQUIRED"] });
    const noB13a = buildShipRequest(fromCanada, settings).body;
    delete (noB13a.requestedShipment.customsClearanceDetail as { exportDetail?: unknown }).exportDetail;
    expect(await post(noB13a)).toEqual({ status: 400, codes: ["B13AFILINGOPTION.REQUIRED"] });
  });
});

describe("FedEx ship dates on the origin's calendar", () => {
  const at = (iso: string) => vi.useFakeTimers({ toFake: ["Date"], now: Date.parse(iso) });
  const sent = (operation: string) => JSON.parse(calls(operation).at(-1)!.body).requestedShipment;

  it("a Friday-afternoon quote in Chicago ships on Friday", async () => {
    at("2026-11-20T22:00:00Z"); // 16:00 CST
    const quotes = await invoke(connection(), "rates", (a, ctx) =>
      a.rate(ctx, fedexDomesticRate({ services: ["FEDEX_2_DAY"] })),
    );
    expect(sent("rate").shipDateStamp).toBe("2026-11-20");
    expect(quotes.ok && quotes.data[0]!.estimated_delivery).toBe("2026-11-24");
  });

  it("a Friday-evening quote and label in Chicago (Saturday in UTC) ship on Monday, past the cut-off", async () => {
    at("2026-11-21T01:00:00Z"); // 19:00 CST
    const quotes = await invoke(connection(), "rates", (a, ctx) =>
      a.rate(ctx, fedexDomesticRate({ services: ["FEDEX_2_DAY"] })),
    );
    expect(sent("rate").shipDateStamp).toBe("2026-11-23");
    expect(quotes.ok && quotes.data[0]!.estimated_delivery).toBe("2026-11-25");
    await invoke(connection(), "ship", (a, ctx) => a.ship(ctx, fedexDomesticShip()));
    expect(sent("ship").shipDatestamp).toBe("2026-11-23");
    // A connection with a later cut-off still ships on Friday.
    await invoke(connection({ cutoff_time: "20:00" }), "ship", (a, ctx) => a.ship(ctx, fedexDomesticShip()));
    expect(sent("ship").shipDatestamp).toBe("2026-11-20");
  });

  it("a Sunday quote in Sydney (Saturday in UTC) ships on Monday", async () => {
    at("2026-11-21T14:00:00Z"); // 01:00 AEDT on Sunday
    const base = fedexDomesticRate();
    const sydney = { ...base.shipper, city: "Sydney", state_code: "NSW", postal_code: "2000", country_code: "AU" };
    const melbourne = { ...sydney, city: "Melbourne", state_code: "VIC", postal_code: "3000" };
    await invoke(connection(), "rates", (a, ctx) =>
      a.rate(ctx, fedexDomesticRate({ shipper: sydney, recipient: melbourne })),
    );
    expect(sent("rate").shipDateStamp).toBe("2026-11-23");
  });

  it("the emulator refuses a rate request dated before the shipper's today, as rate-api.json says", async () => {
    at("2026-11-20T22:00:00Z");
    const { body } = buildRateRequest(fedexDomesticRate(), {
      accountNumber: FEDEX_CREDENTIALS.account_number,
      pickupType: "DROPOFF_AT_FEDEX_LOCATION",
      shipDate: "2026-11-19",
      smartPostHubId: null,
    });
    const token = await fetch(`${emulator.current.url}/fedex/oauth/token`, {
      method: "POST",
      body: "grant_type=client_credentials&client_id=a&client_secret=b",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    const { access_token } = (await token.json()) as { access_token: string };
    const res = await fetch(`${emulator.current.url}/fedex/rate/v1/rates/quotes`, {
      method: "POST",
      body: JSON.stringify(body),
      headers: { authorization: `Bearer ${access_token}`, "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ errors: [{ code: "SHIPDATESTAMP.INVALID" }] });
  });
});
