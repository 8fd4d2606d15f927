import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { PDFDocument } from "pdf-lib";
import { PNG } from "pngjs";
import { TokenCache } from "@/lib/carriers/http/token-cache";
import { CarrierError, type AdapterContext } from "@/lib/carriers/types";
import { upsAdapter } from "@/lib/carriers/ups/adapter";
import { pngPhysicalSize } from "@/lib/labels/png-size";
import { atDeadline, fakeTimeouts, pastRetryPauses } from "@/test/clock";
import { startCarrierEmulator } from "@/test/emulator";
import type { Emulator, Operation } from "@/test/emulator/server";
import { isValidUpsTrackingNumber, makeUpsTrackingNumber } from "@/test/emulator/ups-tracking";
import {
  upsInternationalRateRequest,
  upsInternationalShipRequest,
  upsRateRequest,
  upsShipRequest,
  withUpsContext,
  type UpsContextOptions,
} from "@/test/ups-context";

/**
 * The UPS adapter against the carrier emulator's UPS: real HTTP, real tokens, real label images; the emulator's
 * switches for every way UPS fails.
 */

let emulator: Emulator;
let skewMs = 0;
const clock = () => new Date(Date.now() + skewMs);
let tokens = new TokenCache();

beforeAll(async () => {
  emulator = await startCarrierEmulator({ now: clock });
});
afterEach(() => {
  vi.useRealTimers();
  emulator.reset();
  skewMs = 0;
  tokens = new TokenCache();
});
afterAll(() => emulator.close());

function run<T>(op: (ctx: AdapterContext) => Promise<T>, opts: Partial<UpsContextOptions> = {}) {
  return withUpsContext({ baseUrl: `${emulator.url}/ups`, tokens, now: clock, ...opts }, op);
}

const calls = (operation: Operation) => emulator.calls.filter((c) => c.carrier === "ups" && c.operation === operation);

/** The CarrierError an operation fails with (never a plain Error). */
async function failure(promise: Promise<unknown>): Promise<CarrierError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CarrierError);
  return error as CarrierError;
}

describe("UPS against the emulator", () => {
  it("rates every service on the route, with negotiated rates, surcharges and time in transit", async () => {
    const { data, messages } = await run((ctx) => upsAdapter.rate(ctx, upsRateRequest()));
    expect(data.map((q) => q.service)).toEqual(["03", "12", "02", "59", "13", "01", "14"]);
    const ground = data[0]!;
    expect(ground).toMatchObject({ service_name: "UPS Ground", currency: "USD" });
    expect(ground.extra_charges.map((e) => e.name)).toEqual(["Fuel surcharge", "Residential surcharge"]);
    expect(ground.transit_days).toBeGreaterThan(0);
    expect(ground.estimated_delivery).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const sum = ground.base_charge + ground.extra_charges.reduce((s, e) => s + e.amount, 0) - ground.discount;
    expect(Math.round((sum + ground.duties_and_taxes) * 100) / 100).toBe(ground.total_charge);
    expect(messages).toEqual([expect.objectContaining({ code: "110971", level: "warning" })]);
    // Negotiated: the account's net price, below the list price UPS quotes without the indicator.
    const list = await run((ctx) => upsAdapter.rate(ctx, upsRateRequest()), { config: { negotiated_rates: false } });
    expect(ground.total_charge).toBeLessThan(list.data[0]!.total_charge);

    const body = JSON.parse(calls("rate")[0]!.body);
    expect(calls("rate")[0]!.path).toBe("/api/rating/v2409/Shoptimeintransit");
    expect(body.RateRequest.Shipment.DeliveryTimeInformation.Pickup.Date).toMatch(/^\d{8}$/);
  });

  it("rates one service with Ratetimeintransit, and list prices when negotiated rates are off", async () => {
    const { data, messages } = await run((ctx) => upsAdapter.rate(ctx, upsRateRequest({ services: ["02"] })), {
      config: { negotiated_rates: false },
    });
    expect(data.map((q) => q.service)).toEqual(["02"]);
    expect(data[0]!.discount).toBe(0);
    expect(messages).toEqual([]);
    expect(calls("rate")[0]!.path).toBe("/api/rating/v2409/Ratetimeintransit");
  });

  it("refuses a service UPS does not run on the route with UPS's code", async () => {
    const error = await failure(run((ctx) => upsAdapter.rate(ctx, upsRateRequest({ services: ["65"] }))));
    expect(error.code).toBe("111100");
  });

  it("rates an international parcel", async () => {
    const { data } = await run((ctx) => upsAdapter.rate(ctx, upsInternationalRateRequest()));
    expect(data.map((q) => q.service)).toEqual(["08", "65", "07", "54"]);
    expect(data.find((q) => q.service === "65")!.service_name).toBe("UPS Worldwide Saver");
  });

  it("buys a PDF label: a 4×6 page per package with the upright label, a valid 1Z number, the charge", async () => {
    const { data, messages } = await run((ctx) => upsAdapter.ship(ctx, upsShipRequest()));
    expect(messages).toEqual([]);
    expect(isValidUpsTrackingNumber(data.tracking_number)).toBe(true);
    expect(data.tracking_number).toMatch(/^1ZA1B2C303\d{7}\d$/);
    expect(data.shipment_identifier).toBe(data.tracking_number);
    expect(data.label.type).toBe("PDF");
    const pdf = await PDFDocument.load(data.label.bytes);
    expect(pdf.getPageCount()).toBe(1);
    const { width, height } = pdf.getPage(0).getSize();
    expect([width, height]).toEqual([288, 432]);
    expect(data.charge).toMatchObject({ service: "03", service_name: "UPS Ground", currency: "USD" });
    expect(data.charge!.total_charge).toBeGreaterThan(0);

    const request = JSON.parse(calls("ship")[0]!.body).ShipmentRequest;
    expect(request.LabelSpecification.LabelImageFormat.Code).toBe("GIF");
    expect(request.Shipment.Package[0].ReferenceNumber).toEqual([
      { Value: "ORDER-1001" },
      { Value: "0123456789abcdef0123456789abcdef" },
    ]);
  });

  it("buys a PNG label turned upright (portrait, 4×6 in) and a ZPL label as UPS sends it", async () => {
    const png = await run((ctx) => upsAdapter.ship(ctx, upsShipRequest({ label_type: "PNG" })));
    const image = PNG.sync.read(Buffer.from(png.data.label.bytes));
    expect(image.height).toBeGreaterThan(image.width);
    const size = pngPhysicalSize(png.data.label.bytes, image.width, image.height);
    expect([Math.round(size.width), Math.round(size.height)]).toEqual([288, 432]);

    const zpl = await run((ctx) => upsAdapter.ship(ctx, upsShipRequest({ label_type: "ZPL" })));
    const text = new TextDecoder().decode(zpl.data.label.bytes).trim();
    expect(text.startsWith("^XA") && text.endsWith("^XZ")).toBe(true);
    expect(text).toContain(zpl.data.tracking_number);
    expect(JSON.parse(calls("ship")[1]!.body).ShipmentRequest.LabelSpecification.LabelImageFormat.Code).toBe("ZPL");
  });

  it("buys a PDF with one page per parcel, and refuses a PNG of several parcels before buying", async () => {
    const parcels = [...upsShipRequest().parcels, ...upsShipRequest().parcels];
    const { data } = await run((ctx) => upsAdapter.ship(ctx, upsShipRequest({ parcels })));
    expect((await PDFDocument.load(data.label.bytes)).getPageCount()).toBe(2);
    expect(data.meta.tracking_numbers).toHaveLength(2);

    const error = await failure(run((ctx) => upsAdapter.ship(ctx, upsShipRequest({ parcels, label_type: "PNG" }))));
    expect(error.code).toBe("not_supported");
    expect(calls("ship")).toHaveLength(1);
  });

  it("ships internationally with the commercial invoice; a printed copy when paperless is not wanted", async () => {
    const paperless = await run((ctx) => upsAdapter.ship(ctx, upsInternationalShipRequest()));
    expect(paperless.data.meta).toEqual({});
    const forms = JSON.parse(calls("ship")[0]!.body).ShipmentRequest.Shipment.ShipmentServiceOptions.InternationalForms;
    expect(forms.Product).toHaveLength(2);

    const request = upsInternationalShipRequest();
    const printed = await run((ctx) =>
      upsAdapter.ship(ctx, { ...request, customs: { ...request.customs!, commercial_invoice: false } }),
    );
    expect(printed.data.meta).toEqual({ commercial_invoice_printed: true });
  });

  it("from the US to Canada, the shipment's value goes along as UPS's InvoiceLineTotal", async () => {
    const request = upsInternationalShipRequest({ service: "11" });
    const toronto = {
      ...request.recipient,
      address_line1: "100 Queen St W",
      city: "Toronto",
      state_code: "ON",
      postal_code: "M5H 2N2",
      country_code: "CA",
    };
    const { data } = await run((ctx) => upsAdapter.ship(ctx, { ...request, recipient: toronto }));
    expect(isValidUpsTrackingNumber(data.tracking_number)).toBe(true);
    const shipment = JSON.parse(calls("ship")[0]!.body).ShipmentRequest.Shipment;
    expect(shipment.InvoiceLineTotal).toEqual({ CurrencyCode: "USD", MonetaryValue: "180" });
    expect(shipment.ShipTo.Address.PostalCode).toBe("M5H2N2");
  });

  it("an international label without a phone number is UPS's refusal, naming the field", async () => {
    const request = upsInternationalShipRequest();
    const error = await failure(
      run((ctx) => upsAdapter.ship(ctx, { ...request, recipient: { ...request.recipient, phone_number: null } })),
    );
    expect(error.code).toBe("120001");
    expect(error.message).toMatch(/ship to phone number/);
  });

  it("voids a label, and a second void of it settles as voided with an info message", async () => {
    const sold = await run((ctx) => upsAdapter.ship(ctx, upsShipRequest()));
    const req = { tracking_number: sold.data.tracking_number, shipment_identifier: sold.data.shipment_identifier };
    expect(await run((ctx) => upsAdapter.void(ctx, req))).toEqual({ data: { voided: true }, messages: [] });
    const again = await run((ctx) => upsAdapter.void(ctx, req));
    expect(again.data).toEqual({ voided: true });
    expect(again.messages).toEqual([expect.objectContaining({ code: "190117", level: "info" })]);
    const tracked = await run((ctx) => upsAdapter.track(ctx, sold.data.tracking_number));
    expect(tracked.data.status).toBe("cancelled");
  });

  it("a label UPS has already received cannot be voided", async () => {
    const sold = await run((ctx) => upsAdapter.ship(ctx, upsShipRequest()));
    skewMs = 4 * 3_600_000;
    const error = await failure(
      run((ctx) => upsAdapter.void(ctx, { tracking_number: sold.data.tracking_number, shipment_identifier: null })),
    );
    expect(error.code).toBe("190101");
  });

  it("tracks a parcel as it moves: label created, in transit, delivered; newest event first", async () => {
    const sold = await run((ctx) => upsAdapter.ship(ctx, upsShipRequest()));
    const n = sold.data.tracking_number;
    expect((await run((ctx) => upsAdapter.track(ctx, n))).data.status).toBe("pending");
    skewMs = 8 * 3_600_000;
    const moving = await run((ctx) => upsAdapter.track(ctx, n));
    expect(moving.data.status).toBe("in_transit");
    expect(moving.data.events.map((e) => e.status)).toEqual(["in_transit", "picked_up", "pending"]);
    expect(moving.data.estimated_delivery).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    skewMs = 10 * 24 * 3_600_000;
    const delivered = await run((ctx) => upsAdapter.track(ctx, n));
    expect(delivered.data.status).toBe("delivered");
    expect(delivered.data.events[0]).toMatchObject({ status: "delivered", code: "FS", description: "DELIVERED" });
    expect(delivered.data.events[1]!.status).toBe("out_for_delivery");
    const instants = delivered.data.events.map((e) => e.occurred_at);
    expect([...instants].sort().reverse()).toEqual(instants);
  });

  describe("unhappy journeys, chosen by the shipment's reference (Next Day Air: delivery due 24 h after the sale)", () => {
    const sell = async (journey: string) =>
      (await run((ctx) => upsAdapter.ship(ctx, upsShipRequest({ service: "01", reference: `journey-${journey}` }))))
        .data.tracking_number;
    const trackAt = async (n: string, hours: number) => {
      skewMs = hours * 3_600_000;
      return (await run((ctx) => upsAdapter.track(ctx, n))).data;
    };

    it("a failed attempt (X 022) is delivery_failed, then the second attempt delivers", async () => {
      const n = await sell("attempt");
      const missed = await trackAt(n, 30);
      expect(missed.status).toBe("delivery_failed");
      expect(missed.events[0]).toMatchObject({ status: "delivery_failed", code: "48" });
      const done = await trackAt(n, 72);
      expect(done.status).toBe("delivered");
      expect(done.events.slice(0, 3).map((e) => e.status)).toEqual([
        "delivered",
        "out_for_delivery",
        "delivery_failed",
      ]);
    });

    it("a delay (X 046) is delivery_delayed, and the parcel arrives a day late", async () => {
      const n = await sell("delay");
      const due = (await trackAt(n, 1)).estimated_delivery!;
      const delayed = await trackAt(n, 14);
      expect(delayed.status).toBe("delivery_delayed");
      // UPS's rescheduled date (RDD), a day after the scheduled one.
      expect(Date.parse(delayed.estimated_delivery!) - Date.parse(due)).toBe(86_400_000);
      expect((await trackAt(n, 40)).status).toBe("in_transit");
      expect((await trackAt(n, 72)).status).toBe("delivered");
    });

    it("three attempts (022, 023, 024), then returning to sender (035)", async () => {
      const n = await sell("return");
      const back = await trackAt(n, 90);
      expect(back.status).toBe("return_to_sender");
      // The return leg is a plain departure scan (DP): only its status code, 035, says it is going back.
      expect(back.events.slice(0, 6).map((e) => [e.code, e.status])).toEqual([
        ["DP", "return_to_sender"],
        ["49", "delivery_failed"],
        ["OT", "out_for_delivery"],
        ["48", "delivery_failed"],
        ["OT", "out_for_delivery"],
        ["48", "delivery_failed"],
      ]);
    });

    it("a parcel UPS destroyed (X 149) is lost, with no estimated delivery", async () => {
      const n = await sell("lost");
      expect((await trackAt(n, 17)).status).toBe("in_transit");
      const gone = await trackAt(n, 20);
      expect(gone).toMatchObject({ status: "lost", estimated_delivery: null });
      expect(gone.events[0]).toMatchObject({
        status: "lost",
        code: "1F",
        description: "Per government agency instruction, UPS has destroyed the package.",
      });
      // Nothing follows: the journey ends there.
      expect((await trackAt(n, 24 * 10)).events).toHaveLength(gone.events.length);
    });
  });

  it("a number UPS never sold is not found (TW0001), a malformed one too (TV1002), a short one without a call", async () => {
    const unsold = makeUpsTrackingNumber("A1B2C3", "03", 7654321);
    expect((await failure(run((ctx) => upsAdapter.track(ctx, unsold)))).messages[0]).toMatchObject({
      code: "tracking_not_found",
      details: { carrier_code: "TW0001" },
    });
    const badCheckDigit = unsold.slice(0, 17) + ((Number(unsold[17]) + 1) % 10);
    expect((await failure(run((ctx) => upsAdapter.track(ctx, badCheckDigit)))).messages[0]).toMatchObject({
      code: "tracking_not_found",
      details: { carrier_code: "TV1002" },
    });
    expect((await failure(run((ctx) => upsAdapter.track(ctx, "1Z12")))).code).toBe("tracking_not_found");
    expect(calls("track")).toHaveLength(2);
  });

  it("sends a unique transId and transactionSrc with every tracking call", async () => {
    const n = makeUpsTrackingNumber("A1B2C3", "03", 1234567);
    for (let i = 0; i < 3; i++) await failure(run((ctx) => upsAdapter.track(ctx, n)));
    const ids = calls("track").map((c) => c.headers.transid);
    expect(new Set(ids).size).toBe(3);
    for (const c of calls("track")) {
      expect(c.headers.transid).toMatch(/^[0-9a-f]{32}$/);
      expect(c.headers.transactionsrc).toBe("shipwell");
    }
  });
});

describe("UPS tokens against the emulator", () => {
  it("fetches one token for three calls, with UPS's Basic header and form body", async () => {
    await run((ctx) => upsAdapter.rate(ctx, upsRateRequest()));
    await failure(run((ctx) => upsAdapter.track(ctx, makeUpsTrackingNumber("A1B2C3", "03", 1))));
    await run((ctx) => upsAdapter.rate(ctx, upsRateRequest({ services: ["03"] })));
    expect(calls("token")).toHaveLength(1);
    const call = calls("token")[0]!;
    expect(call.headers.authorization).toBe(`Basic ${Buffer.from("test-client:test-secret").toString("base64")}`);
    expect(call.headers["x-merchant-id"]).toBe("A1B2C3");
    expect(call.body).toBe("grant_type=client_credentials");
  });

  it("after the token expires, the 401 is followed by exactly one refresh and the call succeeds", async () => {
    await run((ctx) => upsAdapter.rate(ctx, upsRateRequest()));
    emulator.expireTokens("ups");
    const { data } = await run((ctx) => upsAdapter.rate(ctx, upsRateRequest()));
    expect(data.length).toBeGreaterThan(0);
    expect(calls("token")).toHaveLength(2);
    expect(calls("rate").map((c) => c.status)).toEqual([200, 401, 200]);
  });

  it("credentials UPS refuses at the token endpoint are carrier_auth_failed", async () => {
    const error = await failure(
      run((ctx) => upsAdapter.rate(ctx, upsRateRequest()), {
        credentials: { client_id: "invalid-client", client_secret: "x", account_number: "A1B2C3" },
      }),
    );
    expect(error.messages[0]).toMatchObject({ code: "carrier_auth_failed", details: { carrier_code: "10401" } });
    expect(calls("rate")).toHaveLength(0);
  });
});

describe("UPS fault switches: each gives the contract's code", () => {
  it("503: carrier_unavailable after the retries a rate may have", async () => {
    emulator.set("ups", { fault: { kind: "status", status: 503 } });
    const error = await failure(run((ctx) => upsAdapter.rate(ctx, upsRateRequest())));
    expect(error.code).toBe("carrier_unavailable");
    expect(calls("rate")).toHaveLength(3);
  });

  it("500 on ship: carrier_unavailable, and the purchase is not sent again", async () => {
    emulator.set("ups", { fault: { kind: "status", status: 500 }, fault_operations: ["ship"] });
    const error = await failure(run((ctx) => upsAdapter.ship(ctx, upsShipRequest())));
    expect(error.code).toBe("carrier_unavailable");
    expect(calls("ship")).toHaveLength(1);
  });

  it("429 with a long Retry-After: carrier_rate_limited with the wait", async () => {
    emulator.set("ups", { fault: { kind: "rate_limited", retry_after_s: 30 } });
    const error = await failure(run((ctx) => upsAdapter.rate(ctx, upsRateRequest())));
    expect(error.messages[0]).toMatchObject({ code: "carrier_rate_limited", details: { retry_after_seconds: 30 } });
  });

  it("429 with a short Retry-After is waited out", async () => {
    emulator.set("ups", { fault: { kind: "rate_limited", retry_after_s: 1 }, fault_times: 1 });
    fakeTimeouts();
    const { data } = await pastRetryPauses(run((ctx) => upsAdapter.rate(ctx, upsRateRequest())));
    expect(data.length).toBeGreaterThan(0);
    expect(calls("rate").map((c) => c.status)).toEqual([429, 200]);
  });

  it("a body that is not JSON: carrier_bad_response", async () => {
    emulator.set("ups", { fault: { kind: "malformed" } });
    const error = await failure(run((ctx) => upsAdapter.rate(ctx, upsRateRequest())));
    expect(error.code).toBe("carrier_bad_response");
  });

  it("no answer before the deadline: carrier_timeout", async () => {
    emulator.set("ups", { fault: { kind: "hang" }, fault_operations: ["track"] });
    fakeTimeouts();
    const tracking = run((ctx) => upsAdapter.track(ctx, makeUpsTrackingNumber("A1B2C3", "03", 5)), {
      deadlineMs: 300,
    });
    const error = await failure(atDeadline(tracking, () => calls("track").length === 1, 300));
    expect(error.code).toBe("carrier_timeout");
  });

  it("401 on every call, even with a fresh token: carrier_auth_failed after one refresh", async () => {
    emulator.set("ups", { fault: { kind: "status", status: 401 } });
    const error = await failure(run((ctx) => upsAdapter.rate(ctx, upsRateRequest())));
    expect(error.messages[0]).toMatchObject({ code: "carrier_auth_failed", details: { carrier_code: "250002" } });
    expect(calls("token")).toHaveLength(2);
    expect(calls("rate")).toHaveLength(2);
  });

  it("401 from the token endpoint too: carrier_auth_failed", async () => {
    emulator.set("ups", { fault: { kind: "status", status: 401 }, fault_operations: ["token", "rate"] });
    const error = await failure(run((ctx) => upsAdapter.rate(ctx, upsRateRequest())));
    expect(error.code).toBe("carrier_auth_failed");
    expect(calls("rate")).toHaveLength(0);
  });
});
