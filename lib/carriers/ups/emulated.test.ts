import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { PDFDocument } from "pdf-lib";
import { PNG } from "pngjs";
import { TokenCache } from "@/lib/carriers/http/token-cache";
import { CarrierError, type AdapterContext } from "@/lib/carriers/types";
import { upsAdapter } from "@/lib/carriers/ups/adapter";
import { pngPhysicalSize } from "@/lib/labels/png-size";
import { atDeadline, fakeTimeouts, pastRetryPauses } from "@/test/clock";
import { carrierShipDate } from "@/lib/carriers/ship-date";
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
  emulator.assertContractKept();
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

  it("negotiated rates with or without itemized charges: the same total, each broken down from one set", async () => {
    const itemized = (await run((ctx) => upsAdapter.rate(ctx, upsRateRequest({ services: ["03"] })))).data[0]!;
    const credentials = { client_id: "test-client", client_secret: "test-secret", account_number: "NOITEM" };
    const bare = (await run((ctx) => upsAdapter.rate(ctx, upsRateRequest({ services: ["03"] })), { credentials }))
      .data[0]!;
    const list = (
      await run((ctx) => upsAdapter.rate(ctx, upsRateRequest({ services: ["03"] })), {
        config: { negotiated_rates: false },
      })
    ).data[0]!;
    expect(bare.total_charge).toBe(itemized.total_charge);
    // Itemized: the account's own base and surcharges, nothing to discount.
    expect(itemized.discount).toBe(0);
    expect(itemized.base_charge).toBeLessThan(list.base_charge);
    // A bare total: the list's parts, and UPS's two totals' difference as the saving.
    expect(bare.base_charge).toBe(list.base_charge);
    expect(bare.extra_charges).toEqual(list.extra_charges);
    expect(bare.discount).toBe(Math.round((list.total_charge - bare.total_charge) * 100) / 100);
    for (const q of [itemized, bare, list]) {
      const parts = q.base_charge + q.extra_charges.reduce((s, e) => s + e.amount, 0) - q.discount;
      expect(Math.round((parts + q.duties_and_taxes) * 100) / 100).toBe(q.total_charge);
    }
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
    expect(paperless.data.documents).toEqual([]);
    const forms = JSON.parse(calls("ship")[0]!.body).ShipmentRequest.Shipment.ShipmentServiceOptions.InternationalForms;
    expect(forms.Product).toHaveLength(2);

    const request = upsInternationalShipRequest();
    const printed = await run((ctx) =>
      upsAdapter.ship(ctx, { ...request, customs: { ...request.customs!, commercial_invoice: false } }),
    );
    expect(
      JSON.parse(calls("ship")[1]!.body).ShipmentRequest.Shipment.ShipmentServiceOptions.InternationalForms,
    ).toMatchObject({
      OverridePaperlessIndicator: "Y",
    });
    // The printed invoice reaches the shipper as a document beside the label, the PDF UPS drew.
    expect(printed.data.documents).toMatchObject([
      { type: "commercial_invoice", format: "PDF", name: "All Requested International Forms" },
    ]);
    const invoice = await PDFDocument.load(printed.data.documents[0]!.bytes);
    expect(invoice.getPageCount()).toBe(1);
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

  it("tax registrations reach UPS's GlobalTaxInformation: typed ones and the old federal_tax_id", async () => {
    const request = upsInternationalShipRequest();
    const { data } = await run((ctx) =>
      upsAdapter.ship(ctx, {
        ...request,
        shipper: { ...request.shipper, federal_tax_id: "12-3456789" },
        customs: {
          ...request.customs!,
          tax_registrations: {
            shipper: [{ type: "eori", number: "US123456789000", issuing_country: null }],
            recipient: [
              { type: "vat", number: "GB123456789", issuing_country: "GB" },
              { type: "eori", number: "GB123456789000", issuing_country: null },
              { type: "other", number: "X-1", issuing_country: null },
            ],
          },
        },
      }),
    );
    expect(isValidUpsTrackingNumber(data.tracking_number)).toBe(true);
    const shipment = JSON.parse(calls("ship")[0]!.body).ShipmentRequest.Shipment;
    const common = { IDNumberEncryptionIndicator: "0", IncludeIDNumberOnShippingBrokerageDocs: "01" };
    expect(shipment.GlobalTaxInformation).toEqual({
      AgentTaxIdentificationNumber: [
        {
          AgentRole: "20",
          TaxIdentificationNumber: [
            // An EORI of the shipper is UPS's 0002 with purpose 02; the old field is a US EIN, a business tax id.
            {
              IdentificationNumber: "US123456789000",
              IDNumberTypeCode: "0002",
              IDNumberPurposeCode: "02",
              IDNumberCustomerRole: "37",
              IDNumberRequestingCntryCd: "US",
              ...common,
            },
            {
              IdentificationNumber: "12-3456789",
              IDNumberTypeCode: "1002",
              IDNumberPurposeCode: "01",
              IDNumberCustomerRole: "37",
              IDNumberRequestingCntryCd: "US",
              ...common,
            },
          ],
        },
        {
          AgentRole: "30",
          // The consignee takes only 1002, 1005 or 0005: its EORI is told apart by the purpose code alone.
          TaxIdentificationNumber: [
            {
              IdentificationNumber: "GB123456789",
              IDNumberTypeCode: "1002",
              IDNumberPurposeCode: "01",
              IDNumberCustomerRole: "18",
              IDNumberRequestingCntryCd: "GB",
              IDNumberIssuingCntryCd: "GB",
              ...common,
            },
            {
              IdentificationNumber: "GB123456789000",
              IDNumberTypeCode: "1002",
              IDNumberPurposeCode: "02",
              IDNumberCustomerRole: "18",
              IDNumberRequestingCntryCd: "GB",
              ...common,
            },
            {
              IdentificationNumber: "X-1",
              IDNumberTypeCode: "1002",
              IDNumberPurposeCode: "01",
              IDNumberCustomerRole: "18",
              IDNumberRequestingCntryCd: "GB",
              ...common,
            },
          ],
        },
      ],
    });

    // A domestic label carries none, even with the old field filled in.
    await run((ctx) =>
      upsAdapter.ship(ctx, upsShipRequest({ shipper: { ...upsShipRequest().shipper, federal_tax_id: "12-3456789" } })),
    );
    expect(JSON.parse(calls("ship")[1]!.body).ShipmentRequest.Shipment.GlobalTaxInformation).toBeUndefined();
  });

  it("a wish for an undeliverable parcel UPS cannot take is a warning; the label is bought", async () => {
    const request = upsInternationalShipRequest();
    const { data, messages } = await run((ctx) =>
      upsAdapter.ship(ctx, { ...request, customs: { ...request.customs!, non_delivery: "abandon" } }),
    );
    expect(isValidUpsTrackingNumber(data.tracking_number)).toBe(true);
    expect(messages).toMatchObject([
      { code: "not_supported", level: "warning", details: { field: "customs.non_delivery" } },
    ]);
  });

  it("the emulator holds UPS's prose rule: a consignee's IDNumberTypeCode is 1002, 1005 or 0005", async () => {
    const { buildShipRequest } = await import("@/lib/carriers/ups/shipping");
    const request = upsInternationalShipRequest();
    const { body } = buildShipRequest(request, {
      accountNumber: "A1B2C3",
      negotiatedRates: true,
      shipDate: carrierShipDate(request.ship_date, clock()),
    });
    body.ShipmentRequest.Shipment.GlobalTaxInformation = {
      AgentTaxIdentificationNumber: [
        {
          AgentRole: "30",
          TaxIdentificationNumber: [
            {
              IdentificationNumber: "GB123456789000",
              IDNumberTypeCode: "0002",
              IDNumberPurposeCode: "02",
              IDNumberCustomerRole: "18",
              IDNumberEncryptionIndicator: "0",
            },
          ],
        },
      ],
    };
    const token = await fetch(`${emulator.url}/ups/security/v1/oauth/token`, {
      method: "POST",
      headers: {
        Authorization: `Basic ${Buffer.from("test-client:test-secret").toString("base64")}`,
        "Content-Type": "application/x-www-form-urlencoded",
        "x-merchant-id": "A1B2C3",
      },
      body: "grant_type=client_credentials",
    }).then((r) => r.json() as Promise<{ access_token: string }>);
    const answer = await fetch(`${emulator.url}/ups/api/shipments/v2409/ship`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token.access_token}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(await answer.json())).toContain("When AgentRole is 30, IDNumberTypeCode must be 1002");
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
    expect(await run((ctx) => upsAdapter.void(ctx, req))).toEqual({
      data: { voided: true, refund: null },
      messages: [],
    });
    const again = await run((ctx) => upsAdapter.void(ctx, req));
    expect(again.data).toEqual({ voided: true, refund: null });
    expect(again.messages).toEqual([expect.objectContaining({ code: "190117", level: "info" })]);
    const tracked = await run((ctx) => upsAdapter.track(ctx, sold.data.tracking_number));
    expect(tracked.data.status).toBe("cancelled");
  });

  it("a void UPS answers 200 with the package not voided is a refusal; the label stays live", async () => {
    const credentials = { client_id: "test-client", client_secret: "test-secret", account_number: "NOVOID" };
    const sold = await run((ctx) => upsAdapter.ship(ctx, upsShipRequest()), { credentials });
    const req = { tracking_number: sold.data.tracking_number, shipment_identifier: sold.data.shipment_identifier };
    const error = await failure(run((ctx) => upsAdapter.void(ctx, req), { credentials }));
    expect(error.messages[0]).toMatchObject({
      code: "UPS_NOT_VOIDED",
      details: { voided: [], not_voided: [sold.data.tracking_number] },
    });
    const tracked = await run((ctx) => upsAdapter.track(ctx, sold.data.tracking_number), { credentials });
    expect(tracked.data.status).not.toBe("cancelled");
  });

  it("a partial void names the packages left; cancelling again voids the rest", async () => {
    const credentials = { client_id: "test-client", client_secret: "test-secret", account_number: "PARTVD" };
    const two = upsShipRequest({ parcels: [...upsShipRequest().parcels, ...upsShipRequest().parcels] });
    const sold = await run((ctx) => upsAdapter.ship(ctx, { ...two, label_type: "ZPL" }), { credentials });
    const [first, second] = sold.data.meta.tracking_numbers as string[];
    const req = { tracking_number: sold.data.tracking_number, shipment_identifier: sold.data.shipment_identifier };
    const error = await failure(run((ctx) => upsAdapter.void(ctx, req), { credentials }));
    expect(error.messages[0]).toMatchObject({
      code: "UPS_PARTIALLY_VOIDED",
      details: { voided: [first], not_voided: [second] },
    });
    expect(error.message).toContain(second);
    expect(await run((ctx) => upsAdapter.void(ctx, req), { credentials })).toEqual({
      data: { voided: true, refund: null },
      messages: [],
    });
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

describe("UPS refusing the account", () => {
  it("a blocked merchant (403 on every call) is carrier_auth_failed with UPS's text, asked once", async () => {
    const credentials = { client_id: "blocked-client", client_secret: "test-secret", account_number: "A1B2C3" };
    const error = await failure(run((ctx) => upsAdapter.rate(ctx, upsRateRequest()), { credentials }));
    expect(error.messages[0]).toMatchObject({ code: "carrier_auth_failed", details: { status: 403 } });
    expect(error.message).toContain("Blocked Merchant: this account may not use this API.");
    expect(calls("rate").map((c) => c.status)).toEqual([403]);
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

describe("UPS ship dates on the origin's calendar", () => {
  /** Sets the emulator's and the adapter's clock to `iso`. */
  const setClock = (iso: string) => {
    skewMs = Date.parse(iso) - Date.now();
  };
  const sentRate = () => JSON.parse(calls("rate").at(-1)!.body).RateRequest.Shipment;
  const sentShip = () => JSON.parse(calls("ship").at(-1)!.body).ShipmentRequest.Shipment;
  const businessDaysAfter = (iso: string, days: number) => {
    const d = new Date(`${iso}T00:00:00Z`);
    for (let left = days; left > 0;) {
      d.setUTCDate(d.getUTCDate() + 1);
      if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) left--;
    }
    return d.toISOString().slice(0, 10);
  };

  it("a Friday-afternoon quote in Chicago picks up on Friday and counts transit from it", async () => {
    setClock("2026-11-20T22:00:00Z"); // 16:00 CST
    const { data } = await run((ctx) => upsAdapter.rate(ctx, upsRateRequest({ services: ["02"] })));
    expect(sentRate().DeliveryTimeInformation.Pickup.Date).toBe("20261120");
    expect(data[0]!.estimated_delivery).toBe(businessDaysAfter("2026-11-20", data[0]!.transit_days));
  });

  it("a Friday-evening quote in Chicago (Saturday in UTC) picks up on Monday, past the cut-off", async () => {
    setClock("2026-11-21T01:00:00Z"); // 19:00 CST
    const { data } = await run((ctx) => upsAdapter.rate(ctx, upsRateRequest({ services: ["02"] })));
    expect(sentRate().DeliveryTimeInformation.Pickup.Date).toBe("20261123");
    expect(data[0]!.transit_days).toBe(2);
    expect(data[0]!.estimated_delivery).toBe("2026-11-25");
    // A connection whose cut-off is later still picks up on Friday.
    await run((ctx) => upsAdapter.rate(ctx, upsRateRequest({ services: ["02"] })), {
      config: { cutoff_time: "20:00" },
    });
    expect(sentRate().DeliveryTimeInformation.Pickup.Date).toBe("20261120");
  });

  it("a label bought on a Friday evening in Chicago is dated Monday", async () => {
    setClock("2026-11-21T01:00:00Z");
    await run((ctx) => upsAdapter.ship(ctx, upsShipRequest()));
    expect(sentShip().ShipmentDate).toBe("20261123");
  });

  it("the emulator refuses a ship date already past at the origin, as UPS's 7-day window does", async () => {
    setClock("2026-11-20T22:00:00Z");
    // The adapter's own clock a day behind (a server's clock gone wrong): it sends Thursday.
    const behind = () => new Date(clock().getTime() - 24 * 3_600_000);
    const error = await failure(run((ctx) => upsAdapter.ship(ctx, upsShipRequest()), { now: behind }));
    expect(error.messages[0]).toMatchObject({ code: "120503" });
    expect(sentShip().ShipmentDate).toBe("20261119");
  });
});
