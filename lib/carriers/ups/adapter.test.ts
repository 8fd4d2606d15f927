import { describe, expect, it } from "vitest";
import { PDFDocument } from "pdf-lib";
import { PNG } from "pngjs";
import type { CarrierHttp, CarrierRequest, CarrierResponse } from "@/lib/carriers/http/client";
import { TokenCache } from "@/lib/carriers/http/token-cache";
import { CarrierError, INCOTERMS, type AdapterContext, type RateQuote, type ShipRequest } from "@/lib/carriers/types";
import { upsAdapter } from "@/lib/carriers/ups/adapter";
import { UPS_TERMS_OF_SHIPMENT } from "@/lib/carriers/ups/customs";
import { CustomsInput } from "@/lib/schemas/customs";
import {
  UPS_CREDENTIALS,
  upsCustoms,
  upsInternationalRateRequest,
  upsInternationalShipRequest,
  upsRateRequest,
  upsShipRequest,
} from "@/test/ups-context";
import rateRequestDomestic from "./fixtures/rate-request-domestic.json";
import rateRequestInternational from "./fixtures/rate-request-international.json";
import shipRequestDomestic from "./fixtures/ship-request-domestic.json";
import shipRequestInternational from "./fixtures/ship-request-international.json";
import rateSuccess from "./fixtures/rate-response-success.json";
import rateCanada from "./fixtures/rate-response-canada.json";
import rateAlerts from "./fixtures/rate-response-alerts.json";
import rateNegotiatedNotItemized from "./fixtures/rate-response-negotiated-not-itemized.json";
import rateError from "./fixtures/rate-response-error.json";
import shipSuccess from "./fixtures/ship-response-success.json";
import shipError from "./fixtures/ship-response-error.json";
import voidSuccess from "./fixtures/void-response-success.json";
import voidAlreadyVoided from "./fixtures/void-response-already-voided.json";
import voidNotVoided from "./fixtures/void-response-not-voided.json";
import voidPartial from "./fixtures/void-response-partial.json";
import trackInTransit from "./fixtures/track-response-in-transit.json";
import trackDelivered from "./fixtures/track-response-delivered.json";
import trackNotFound from "./fixtures/track-response-not-found.json";
import trackInvalid from "./fixtures/track-response-invalid.json";

/**
 * The UPS adapter against recorded UPS answers (fixtures/): the requests it builds from normalized shipments equal
 * the stored payloads, and each answer becomes the expected result and messages. No network: the HTTP client is a
 * stand-in that answers the token request and then what the test says.
 */

const BASE = "https://wwwcie.ups.com";
const NOW = new Date("2024-03-04T15:00:00Z");

interface Answer {
  status: number;
  body: unknown;
}

function response(a: Answer): CarrierResponse {
  const text = typeof a.body === "string" ? a.body : JSON.stringify(a.body);
  return {
    status: a.status,
    headers: new Headers({ "content-type": "application/json" }),
    body: new TextEncoder().encode(text),
    text: () => text,
    // As the real client: a body that is not JSON is carrier_bad_response.
    json: <T>() => {
      try {
        return JSON.parse(text) as T;
      } catch {
        throw new CarrierError("carrier_bad_response", "UPS sent a response that could not be read.");
      }
    },
  };
}

const TOKEN: Answer = {
  status: 200,
  body: {
    token_type: "Bearer",
    issued_at: "1709564400000",
    client_id: "test-client",
    access_token: "token-1",
    scope: "",
    expires_in: "14399",
    refresh_count: "0",
    status: "approved",
  },
};

/** An HTTP client that answers token requests with a token and business calls with `answers`, in order. */
function fakeHttp(...answers: Answer[]): CarrierHttp & { requests: CarrierRequest[]; business: CarrierRequest[] } {
  const requests: CarrierRequest[] = [];
  const business: CarrierRequest[] = [];
  return {
    requests,
    business,
    async request(req) {
      requests.push(req);
      if (req.url.endsWith("/security/v1/oauth/token")) return response(TOKEN);
      business.push(req);
      const next = answers.shift();
      if (!next) throw new Error(`unexpected call ${req.method} ${req.url}`);
      return response(next);
    },
  };
}

function context(http: CarrierHttp, config: Record<string, unknown> = {}): AdapterContext {
  return {
    connection: {
      id: "car_fixture",
      carrier_name: "ups",
      carrier_id: "ups-fixture",
      test_mode: true,
      config,
      credentials: UPS_CREDENTIALS,
    },
    http,
    tokens: new TokenCache(),
    signal: new AbortController().signal,
    now: () => NOW,
    ledger: null,
    baseUrl: BASE,
  };
}

const ok = (body: unknown): Answer => ({ status: 200, body });
const bodyOf = (req: CarrierRequest) => JSON.parse(String(req.body));

async function failure(promise: Promise<unknown>): Promise<CarrierError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CarrierError);
  return error as CarrierError;
}

describe("UPS requests built from normalized shipments", () => {
  it("domestic rate: Shoptimeintransit with total weight, pickup date and negotiated rates", async () => {
    const http = fakeHttp(ok(rateSuccess));
    await upsAdapter.rate(context(http), upsRateRequest());
    const [req] = http.business;
    expect(req!.url).toBe(`${BASE}/api/rating/v2409/Shoptimeintransit`);
    expect(req!.method).toBe("POST");
    expect(req!.idempotent).toBe(true);
    expect(req!.headers).toMatchObject({ Authorization: "Bearer token-1", transactionSrc: "shipwell" });
    expect(bodyOf(req!)).toEqual(rateRequestDomestic);
  });

  it("international rate: the declared value as InvoiceLineTotal", async () => {
    const http = fakeHttp(ok(rateSuccess));
    await upsAdapter.rate(context(http), upsInternationalRateRequest());
    expect(bodyOf(http.business[0]!)).toEqual(rateRequestInternational);
  });

  it("rating leaves out a state code longer than Rating.yaml's two characters (Australia's NSW)", async () => {
    const http = fakeHttp(ok(rateSuccess));
    const base = upsRateRequest();
    const sydney = { ...base.shipper, city: "Sydney", state_code: "NSW", postal_code: "2000", country_code: "AU" };
    const melbourne = {
      ...base.recipient,
      city: "Melbourne",
      state_code: "VIC",
      postal_code: "3000",
      country_code: "AU",
    };
    await upsAdapter.rate(context(http), { ...base, shipper: sydney, recipient: melbourne });
    const { Shipper, ShipTo } = bodyOf(http.business[0]!).RateRequest.Shipment;
    expect(Shipper.Address).not.toHaveProperty("StateProvinceCode");
    expect(ShipTo.Address).not.toHaveProperty("StateProvinceCode");
    expect(ShipTo.Address).toMatchObject({ City: "Melbourne", PostalCode: "3000", CountryCode: "AU" });
  });

  it("one requested service: Ratetimeintransit with its code", async () => {
    const http = fakeHttp(ok(rateSuccess));
    await upsAdapter.rate(context(http), upsRateRequest({ services: ["03"] }));
    expect(http.business[0]!.url).toBe(`${BASE}/api/rating/v2409/Ratetimeintransit`);
    expect(bodyOf(http.business[0]!).RateRequest.Shipment.Service).toEqual({ Code: "03" });
  });

  it("domestic ship: references per package, GIF label, never retried", async () => {
    const http = fakeHttp(ok(shipSuccess));
    await upsAdapter.ship(context(http), upsShipRequest());
    const [req] = http.business;
    expect(req!.url).toBe(`${BASE}/api/shipments/v2409/ship`);
    expect(req!.idempotent).toBe(false);
    expect(bodyOf(req!)).toEqual(shipRequestDomestic);
  });

  it("international ship with customs: invoice, duties payer, shipment references", async () => {
    const http = fakeHttp(ok(shipSuccess));
    await upsAdapter.ship(context(http), upsInternationalShipRequest());
    expect(bodyOf(http.business[0]!)).toEqual(shipRequestInternational);
  });

  it("void and track: UPS's paths, tracking with transId and transactionSrc", async () => {
    const http = fakeHttp(ok(voidSuccess), ok(trackInTransit));
    await upsAdapter.void(context(http), { tracking_number: "1ZA1B2C30392249850", shipment_identifier: null });
    await upsAdapter.track(context(http), "1za1b2c3 0392249850");
    const [voidReq, trackReq] = http.business;
    expect(voidReq).toMatchObject({
      method: "DELETE",
      url: `${BASE}/api/shipments/v2409/void/cancel/1ZA1B2C30392249850`,
    });
    expect(trackReq).toMatchObject({
      method: "GET",
      url: `${BASE}/api/track/v1/details/1ZA1B2C30392249850?locale=en_US&returnSignature=false`,
      idempotent: true,
    });
    expect(trackReq!.headers!.transId).toMatch(/^[0-9a-f]{32}$/);
    expect(trackReq!.headers!.transId).not.toBe(voidReq!.headers!.transId);
  });

  it("asks for a token once, with UPS's Basic header and form body", async () => {
    const http = fakeHttp(ok(rateSuccess), ok(rateSuccess));
    const ctx = context(http);
    await upsAdapter.rate(ctx, upsRateRequest());
    await upsAdapter.rate(ctx, upsRateRequest());
    const tokenCalls = http.requests.filter((r) => r.operation === "auth");
    expect(tokenCalls).toHaveLength(1);
    expect(tokenCalls[0]).toMatchObject({
      method: "POST",
      url: `${BASE}/security/v1/oauth/token`,
      headers: {
        Authorization: `Basic ${Buffer.from("test-client:test-secret").toString("base64")}`,
        "Content-Type": "application/x-www-form-urlencoded",
        "x-merchant-id": "A1B2C3",
      },
    });
    expect(String(tokenCalls[0]!.body)).toBe("grant_type=client_credentials");
  });
});

describe("UPS customs, payers and limits", () => {
  const shipBody = async (req = upsInternationalShipRequest()) => {
    const http = fakeHttp(ok(shipSuccess));
    const result = await upsAdapter.ship(context(http), req);
    return { shipment: bodyOf(http.business[0]!).ShipmentRequest.Shipment, messages: result.messages };
  };
  const withCustoms = (overrides: Parameters<typeof upsCustoms>[0]) =>
    upsInternationalShipRequest({ customs: upsCustoms(overrides) });

  it("a recipient with a UPS account pays duties through BillReceiver; without one, no duties line (UPS bills them)", async () => {
    const withAccount = await shipBody(
      withCustoms({
        incoterm: "DAP",
        duty: { paid_by: "recipient", currency: "USD", account_number: "r9x8y7", declared_value: null },
      }),
    );
    expect(withAccount.shipment.PaymentInformation.ShipmentCharge[1]).toEqual({
      Type: "02",
      BillReceiver: { AccountNumber: "R9X8Y7", Address: { PostalCode: "SW1A2AA" } },
    });
    const without = await shipBody(
      withCustoms({ duty: { paid_by: "recipient", currency: "USD", account_number: null, declared_value: null } }),
    );
    expect(without.shipment.PaymentInformation.ShipmentCharge).toEqual([
      { Type: "01", BillShipper: { AccountNumber: "A1B2C3" } },
    ]);
  });

  it("incoterms: every code sent is in UPS's TermsOfShipment list; DDU, DPU and DAT are refused before buying", async () => {
    const refused: string[] = [];
    for (const incoterm of INCOTERMS) {
      const http = fakeHttp(ok(shipSuccess));
      const req = withCustoms({ incoterm });
      const sent = await upsAdapter.ship(context(http), req).then(
        () => bodyOf(http.business[0]!).ShipmentRequest.Shipment.ShipmentServiceOptions.InternationalForms,
        (e: unknown) => e,
      );
      if (sent instanceof CarrierError) {
        refused.push(incoterm);
        expect(http.business).toHaveLength(0);
        expect(sent.messages[0]).toMatchObject({
          code: "not_supported",
          details: { field: "customs.incoterm", accepted: [...UPS_TERMS_OF_SHIPMENT] },
        });
        expect(sent.message).toContain(`customs.incoterm ${incoterm}`);
      } else {
        expect(UPS_TERMS_OF_SHIPMENT.has(sent.TermsOfShipment)).toBe(true);
        expect(sent.TermsOfShipment).toBe(incoterm);
      }
    }
    expect(refused).toEqual(["DDU", "DPU", "DAT"]);
  });

  it("the incoterm a client who names none gets is one UPS accepts", () => {
    const { incoterm } = CustomsInput.parse({ commodities: [], content_type: "documents" });
    expect(UPS_TERMS_OF_SHIPMENT.has(incoterm)).toBe(true);
  });

  it("a third party pays duties with its account, its country from customs options", async () => {
    const { shipment } = await shipBody(
      withCustoms({
        duty: { paid_by: "third_party", currency: "USD", account_number: "T1T2T3", declared_value: null },
        options: { ups_billing_country_code: "de", ups_billing_postal_code: "10115" },
      }),
    );
    expect(shipment.PaymentInformation.ShipmentCharge[1]).toEqual({
      Type: "02",
      BillThirdParty: { AccountNumber: "T1T2T3", Address: { PostalCode: "10115", CountryCode: "DE" } },
    });
  });

  it("paperless unless a printed invoice is wanted; certify adds UPS's declaration; the reason follows the content", async () => {
    const printed = await shipBody(withCustoms({ commercial_invoice: false, certify: false, content_type: "gift" }));
    const forms = printed.shipment.ShipmentServiceOptions.InternationalForms;
    expect(forms.OverridePaperlessIndicator).toBe("Y");
    expect(forms.DeclarationStatement).toBeUndefined();
    expect(forms.ReasonForExport).toBe("GIFT");
  });

  it("documents without commodities: no invoice, DocumentsOnlyIndicator", async () => {
    const { shipment } = await shipBody(withCustoms({ content_type: "documents", commodities: [] }));
    expect(shipment.DocumentsOnlyIndicator).toBe("Y");
    expect(shipment.Description).toBe("Documents");
    expect(shipment.ShipmentServiceOptions).toBeUndefined();
  });

  it("without an invoice number, the client's reference is the invoice's", async () => {
    const { shipment } = await shipBody(withCustoms({ invoice: null, invoice_date: null }));
    expect(shipment.ShipmentServiceOptions.InternationalForms).toMatchObject({
      InvoiceNumber: "ORDER-1001",
      InvoiceDate: "20240304",
    });
  });

  it("text over UPS's limits is cut, with a warning naming the field", async () => {
    const long =
      "Cotton T-shirts in assorted sizes and colours, made from organic cotton grown in Turkey, with printed logos";
    const request = withCustoms({ content_description: "Assorted clothing and accessories for a boutique in London" });
    const { shipment, messages } = await shipBody({
      ...request,
      recipient: { ...request.recipient, company_name: "The Very Long Name Importers and Distributors Limited" },
      customs: { ...request.customs!, commodities: [{ ...request.customs!.commodities[0]!, description: long }] },
    });
    expect(shipment.ShipTo.Name).toBe("The Very Long Name Importers and Di");
    expect(shipment.Description).toBe("Assorted clothing and accessories for a boutique i");
    const product = shipment.ShipmentServiceOptions.InternationalForms.Product[0];
    expect(product.Description).toEqual([
      "Cotton T-shirts in assorted sizes",
      "and colours, made from organic",
      "cotton grown in Turkey, with",
    ]);
    expect(messages.filter((m) => m.code === "UPS_FIELD_TRUNCATED").map((m) => m.details?.field)).toEqual([
      "customs.content_description",
      "customs.commodities[0].description",
      "recipient.company_name",
    ]);
    expect(messages.every((m) => m.level === "warning")).toBe(true);
  });

  it("the recipient or a third party pays transportation only with a UPS account number: refused before any call", async () => {
    const http = fakeHttp();
    const error = await failure(
      upsAdapter.ship(
        context(http),
        upsShipRequest({ payment: { paid_by: "recipient", currency: null, account_number: null } }),
      ),
    );
    expect(error.messages[0]).toMatchObject({
      code: "UPS_FIELD_REQUIRED",
      details: { field: "payment.account_number" },
    });
    expect(http.requests).toHaveLength(0);
  });

  it("what Shipping.yaml requires of each party (a name, a city) is refused before any call when missing", async () => {
    const request = upsShipRequest();
    const cases: [ShipRequest, string][] = [
      [
        { ...request, recipient: { ...request.recipient, person_name: null, company_name: null } },
        "recipient.person_name",
      ],
      [{ ...request, shipper: { ...request.shipper, person_name: " ", company_name: null } }, "shipper.person_name"],
      [{ ...request, recipient: { ...request.recipient, city: "" } }, "recipient.city"],
    ];
    for (const [req, field] of cases) {
      const http = fakeHttp();
      const error = await failure(upsAdapter.ship(context(http), req));
      expect(error.messages[0]).toMatchObject({ code: "UPS_FIELD_REQUIRED", details: { field } });
      expect(http.requests).toHaveLength(0);
    }
  });

  it("duties billed to a third party need its UPS account number: refused, never sent without one", async () => {
    const http = fakeHttp();
    const request = upsInternationalShipRequest();
    const customs = {
      ...request.customs!,
      duty: { ...request.customs!.duty, paid_by: "third_party" as const, account_number: null },
    };
    const error = await failure(upsAdapter.ship(context(http), { ...request, customs }));
    expect(error.messages[0]).toMatchObject({
      code: "UPS_FIELD_REQUIRED",
      details: { field: "customs.duty.account_number" },
    });
    expect(http.requests).toHaveLength(0);
  });

  it("from the US to Puerto Rico (no customs border), the declared value still goes as InvoiceLineTotal", async () => {
    const request = upsShipRequest({ options: { declared_value: 42.5 } });
    const { shipment } = await shipBody({
      ...request,
      recipient: { ...request.recipient, city: "San Juan", state_code: "PR", postal_code: "00901", country_code: "PR" },
    });
    expect(shipment.InvoiceLineTotal).toEqual({ CurrencyCode: "USD", MonetaryValue: "43" });
    expect(shipment.ShipmentServiceOptions).toBeUndefined();
  });
});

describe("UPS answers as normalized results", () => {
  it("rate success: negotiated rates preferred, surcharges named, alerts as warnings", async () => {
    const { data, messages } = await upsAdapter.rate(context(fakeHttp(ok(rateSuccess))), upsRateRequest());
    expect(data).toEqual<RateQuote[]>([
      {
        service: "03",
        service_name: "UPS Ground",
        currency: "USD",
        // The negotiated set, as UPS itemized it: its total less its itemized charges (never the list base).
        base_charge: 12.47,
        discount: 0,
        duties_and_taxes: 0,
        total_charge: 20.38,
        extra_charges: [
          { name: "Fuel surcharge", amount: 1.81, currency: "USD" },
          { name: "Residential surcharge", amount: 5.65, currency: "USD" },
          { name: "Peak season surcharge, residential", amount: 0.45, currency: "USD" },
        ],
        transit_days: 3,
        estimated_delivery: "2024-03-07",
      },
      {
        service: "02",
        service_name: "UPS 2nd Day Air",
        currency: "USD",
        base_charge: 42.18,
        discount: 0,
        duties_and_taxes: 0,
        total_charge: 56.45,
        extra_charges: [
          { name: "Fuel surcharge", amount: 6.12, currency: "USD" },
          { name: "Residential surcharge", amount: 5.65, currency: "USD" },
          { name: "Service options", amount: 2.5, currency: "USD" },
        ],
        transit_days: 2,
        estimated_delivery: "2024-03-06",
      },
    ]);
    expect(messages).toEqual([
      { code: "110971", level: "warning", message: "Your invoice may vary from the displayed reference rates" },
      {
        code: "110971",
        level: "warning",
        message: "Your invoice may vary from the displayed reference rates",
        details: { service: "03" },
      },
    ]);
  });

  it("negotiated rates without itemized charges: the published set throughout, the saving as the discount", async () => {
    const { data } = await upsAdapter.rate(context(fakeHttp(ok(rateNegotiatedNotItemized))), upsRateRequest());
    expect(
      data.map(({ service, base_charge, discount, total_charge, extra_charges }) => ({
        service,
        base_charge,
        discount,
        total_charge,
        extra_charges,
      })),
    ).toEqual([
      {
        service: "03",
        base_charge: 15.59,
        discount: 3.7,
        total_charge: 19.8,
        extra_charges: [
          { name: "Fuel surcharge", amount: 2.26, currency: "USD" },
          { name: "Residential surcharge", amount: 5.65, currency: "USD" },
        ],
      },
      {
        // A negotiated base without negotiated surcharges: mixing it with the list surcharges would invent a
        // discount of 0.35; the list set and UPS's two totals give the real saving.
        service: "02",
        base_charge: 42.18,
        discount: 11.29,
        total_charge: 45.16,
        extra_charges: [
          { name: "Fuel surcharge", amount: 6.12, currency: "USD" },
          { name: "Residential surcharge", amount: 5.65, currency: "USD" },
          { name: "Service options", amount: 2.5, currency: "USD" },
        ],
      },
    ]);
    for (const q of data) {
      const parts = q.base_charge + q.extra_charges.reduce((s, e) => s + e.amount, 0) - q.discount;
      expect(Math.round((parts + q.duties_and_taxes) * 100) / 100).toBe(q.total_charge);
    }
  });

  it("rate success without negotiated rates: the published price", async () => {
    const { data } = await upsAdapter.rate(
      context(fakeHttp(ok(rateSuccess)), { negotiated_rates: false }),
      upsRateRequest(),
    );
    expect(data[0]).toMatchObject({ total_charge: 23.95, discount: 0, base_charge: 15.59 });
    expect(data[0]!.extra_charges.map((e) => e.amount)).toEqual([2.26, 5.65, 0.45]);
  });

  it("rate from Canada: the origin's service name, taxes as duties_and_taxes, total with taxes", async () => {
    const request = upsRateRequest({
      shipper: {
        ...upsRateRequest().shipper,
        city: "Toronto",
        state_code: "ON",
        postal_code: "M5H2N2",
        country_code: "CA",
      },
      recipient: {
        ...upsRateRequest().recipient,
        city: "Ottawa",
        state_code: "ON",
        postal_code: "K1A0B1",
        country_code: "CA",
      },
    });
    const { data } = await upsAdapter.rate(context(fakeHttp(ok(rateCanada))), request);
    expect(data).toEqual([
      {
        service: "13",
        service_name: "UPS Express Saver",
        currency: "CAD",
        base_charge: 70,
        discount: 0,
        duties_and_taxes: 9.77,
        total_charge: 91.17,
        extra_charges: [{ name: "Fuel surcharge", amount: 11.4, currency: "CAD" }],
        transit_days: 1,
        estimated_delivery: null,
      },
    ]);
  });

  it("rate with alerts only: the quote, and every alert as a warning", async () => {
    const { data, messages } = await upsAdapter.rate(context(fakeHttp(ok(rateAlerts))), upsRateRequest());
    expect(data.map((q) => [q.service, q.total_charge])).toEqual([["03", 17.85]]);
    expect(messages.map((m) => [m.code, m.level])).toEqual([
      ["110971", "warning"],
      ["110920", "warning"],
    ]);
  });

  it("rate error: UPS's codes and messages, every one", async () => {
    const error = await failure(upsAdapter.rate(context(fakeHttp({ status: 400, body: rateError })), upsRateRequest()));
    expect(error.messages).toEqual([
      {
        code: "111285",
        level: "error",
        message: "The postal code 99999 is invalid for TX United States.",
        details: { status: 400 },
      },
      { code: "111286", level: "error", message: "TX is not a valid state abbreviation for 99999." },
    ]);
  });

  it("asked-for services UPS did not quote: a warning, or a refusal when it quoted none", async () => {
    const some = await upsAdapter.rate(context(fakeHttp(ok(rateSuccess))), upsRateRequest({ services: ["03", "14"] }));
    expect(some.data.map((q) => q.service)).toEqual(["03"]);
    expect(some.messages.at(-1)).toMatchObject({ code: "UPS_SERVICE_NOT_OFFERED", details: { service: "14" } });
    const none = await failure(
      upsAdapter.rate(context(fakeHttp(ok(rateSuccess))), upsRateRequest({ services: ["14", "59"] })),
    );
    expect(none.messages[0]).toMatchObject({ code: "UPS_SERVICE_NOT_OFFERED", details: { field: "services" } });
  });

  it("ship success: the 1Z numbers, the GIF turned into an upright 4×6 PDF, the charge, the alert", async () => {
    const { data, messages } = await upsAdapter.ship(context(fakeHttp(ok(shipSuccess))), upsShipRequest());
    expect(data).toMatchObject({
      tracking_number: "1ZA1B2C30392249850",
      shipment_identifier: "1ZA1B2C30392249850",
      meta: {},
      charge: {
        service: "03",
        service_name: "UPS Ground",
        currency: "USD",
        base_charge: 15.59,
        discount: 0,
        duties_and_taxes: 0,
        total_charge: 23.5,
        extra_charges: [
          { name: "Fuel surcharge", amount: 2.26, currency: "USD" },
          { name: "Residential surcharge", amount: 5.65, currency: "USD" },
        ],
        transit_days: 0,
        estimated_delivery: null,
      },
    });
    const pdf = await PDFDocument.load(data.label.bytes);
    expect(pdf.getPageCount()).toBe(1);
    expect(pdf.getPage(0).getSize()).toEqual({ width: 288, height: 432 });
    expect(messages).toEqual([
      {
        code: "120900",
        level: "warning",
        message: "User Id and Shipper Number combination is not qualified to receive negotiated rates",
      },
    ]);
  });

  it("ship success with UPS's printed forms: the commercial invoice as a document; an unreadable one a warning", async () => {
    const invoice = await PDFDocument.create();
    invoice.addPage([612, 792]);
    const pdf = Buffer.from(await invoice.save()).toString("base64");
    const withForm = (graphic: string) => {
      const answer = structuredClone(shipSuccess) as { ShipmentResponse: { ShipmentResults: Record<string, unknown> } };
      answer.ShipmentResponse.ShipmentResults.Form = {
        Code: "01",
        Description: "All Requested International Forms",
        Image: { ImageFormat: { Code: "PDF", Description: "PDF" }, GraphicImage: graphic },
        FormGroupId: "ABCDEF0123456789",
      };
      return answer;
    };
    const { data, messages } = await upsAdapter.ship(context(fakeHttp(ok(withForm(pdf)))), upsShipRequest());
    expect(data.documents).toHaveLength(1);
    expect(data.documents[0]).toMatchObject({
      type: "commercial_invoice",
      format: "PDF",
      name: "All Requested International Forms",
    });
    expect((await PDFDocument.load(data.documents[0]!.bytes)).getPageCount()).toBe(1);
    expect(data.meta).toEqual({});
    expect(messages.map((m) => m.code)).toEqual(["120900"]);

    // A GIF where UPS promised a PDF: the label is sold and fine, so the purchase stands and the shipper is told.
    const gif = "R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7";
    const unreadable = await upsAdapter.ship(context(fakeHttp(ok(withForm(gif)))), upsShipRequest());
    expect(unreadable.data.documents).toEqual([]);
    expect(unreadable.messages).toContainEqual(
      expect.objectContaining({ code: "UPS_FORM_UNREADABLE", level: "warning", details: { format: "PDF" } }),
    );
  });

  it("ship success as PNG: the label upright, 812×1218 dots at 203 dpi (the GIF was 1418×812 with its blank strip)", async () => {
    const { data } = await upsAdapter.ship(context(fakeHttp(ok(shipSuccess))), upsShipRequest({ label_type: "PNG" }));
    const png = PNG.sync.read(Buffer.from(data.label.bytes));
    expect([png.width, png.height]).toEqual([812, 1218]);
  });

  it("a label that is not the image asked for, or not an image at all: carrier_bad_response, and the label voided", async () => {
    const zplAsked = fakeHttp(ok(shipSuccess), ok(voidSuccess));
    const error = await failure(upsAdapter.ship(context(zplAsked), upsShipRequest({ label_type: "ZPL" })));
    expect(error.messages[0]).toMatchObject({
      code: "carrier_bad_response",
      details: { shipment_identifier: "1ZA1B2C30392249850", voided: true },
    });
    expect(zplAsked.business.map((r) => r.operation)).toEqual(["ship", "void"]);

    const broken = structuredClone(shipSuccess);
    broken.ShipmentResponse.ShipmentResults.PackageResults[0]!.ShippingLabel.GraphicImage = "R0lGODlhAQABAAAAACw=";
    const voidRefused = { status: 400, body: { response: { errors: [{ code: "190101", message: "No." }] } } };
    const unreadable = await failure(upsAdapter.ship(context(fakeHttp(ok(broken), voidRefused)), upsShipRequest()));
    expect(unreadable.messages[0]).toMatchObject({
      code: "carrier_bad_response",
      details: { shipment_identifier: "1ZA1B2C30392249850", voided: false },
    });
    expect(unreadable.message).toMatch(/void it/);
  });

  it("ship error: UPS's code and message", async () => {
    const error = await failure(upsAdapter.ship(context(fakeHttp({ status: 400, body: shipError })), upsShipRequest()));
    expect(error.messages).toEqual([
      {
        code: "120802",
        level: "error",
        message: "Address Validation Error on ShipTo address",
        details: { status: 400 },
      },
    ]);
  });

  it("void success, and a void UPS answers as already voided is a success with an info message", async () => {
    const req = { tracking_number: "1ZA1B2C30392249850", shipment_identifier: "1ZA1B2C30392249850" };
    expect(await upsAdapter.void(context(fakeHttp(ok(voidSuccess))), req)).toEqual({
      data: { voided: true, refund: null },
      messages: [],
    });
    const again = await upsAdapter.void(context(fakeHttp({ status: 400, body: voidAlreadyVoided })), req);
    expect(again).toEqual({
      data: { voided: true, refund: null },
      messages: [
        {
          code: "190117",
          level: "info",
          message: "The shipment has already been voided.",
          details: { shipment_identifier: "1ZA1B2C30392249850" },
        },
      ],
    });
    const expired = await failure(
      upsAdapter.void(
        context(
          fakeHttp({
            status: 400,
            body: {
              response: { errors: [{ code: "190102", message: "No shipment found within the allowed void period" }] },
            },
          }),
        ),
        req,
      ),
    );
    expect(expired.code).toBe("190102");
  });

  it("a void answered 200 with the package still not voided is a refusal, never a success", async () => {
    const req = { tracking_number: "1ZA1B2C30392249850", shipment_identifier: "1ZA1B2C30392249850" };
    const error = await failure(upsAdapter.void(context(fakeHttp(ok(voidNotVoided))), req));
    expect(error.messages).toEqual([
      {
        code: "UPS_NOT_VOIDED",
        level: "error",
        message: "UPS did not void shipment 1ZA1B2C30392249850 (package 1ZA1B2C30392249850: Not Voided).",
        details: { shipment_identifier: "1ZA1B2C30392249850", voided: [], not_voided: ["1ZA1B2C30392249850"] },
      },
    ]);
  });

  it("a partial void (one package voided, one not) is reported as such, whatever the summary says", async () => {
    const req = { tracking_number: "1ZA1B2C30392249850", shipment_identifier: "1ZA1B2C30392249850" };
    const error = await failure(upsAdapter.void(context(fakeHttp(ok(voidPartial))), req));
    expect(error.messages).toEqual([
      {
        code: "UPS_PARTIALLY_VOIDED",
        level: "error",
        message:
          "UPS voided 1 of the 2 packages of shipment 1ZA1B2C30392249850; not voided: 1ZA1B2C30392249869 (Not Voided). Cancel again to void the rest, or void it in the UPS account.",
        details: {
          shipment_identifier: "1ZA1B2C30392249850",
          voided: ["1ZA1B2C30392249850"],
          not_voided: ["1ZA1B2C30392249869"],
        },
      },
    ]);
  });

  it("a void whose summary says not voided, without package results, is a refusal", async () => {
    const req = { tracking_number: "1ZA1B2C30392249850", shipment_identifier: "1ZA1B2C30392249850" };
    const body = {
      VoidShipmentResponse: {
        Response: { ResponseStatus: { Code: "1", Description: "Success" } },
        SummaryResult: { Status: { Code: "0", Description: "Not Voided" } },
      },
    };
    const error = await failure(upsAdapter.void(context(fakeHttp(ok(body))), req));
    expect(error.code).toBe("UPS_NOT_VOIDED");
  });

  it("track in transit: events newest first, GMT times padded, dates as local dates, the scheduled date", async () => {
    const { data, messages } = await upsAdapter.track(context(fakeHttp(ok(trackInTransit))), "1ZA1B2C30392249850");
    expect(messages).toEqual([]);
    expect(data).toEqual({
      tracking_number: "1ZA1B2C30392249850",
      status: "in_transit",
      estimated_delivery: "2024-03-07",
      meta: { service_name: "UPS Ground" },
      events: [
        {
          date: "2024-03-05",
          time: "02:13",
          description: "Departed from Facility",
          location: "Hodgkins, IL, 60525, US",
          code: "DP",
          status: "in_transit",
          occurred_at: "2024-03-05T07:13:56.000Z",
        },
        {
          date: "2024-03-04",
          time: "23:47",
          description: "Arrived at Facility",
          location: "Hodgkins, IL, 60525, US",
          code: "AR",
          status: "in_transit",
          occurred_at: "2024-03-05T04:47:00.000Z",
        },
        {
          date: "2024-03-04",
          time: "18:30",
          description: "Origin Scan",
          location: "Chicago, IL, 60607, US",
          code: "OR",
          status: "picked_up",
          occurred_at: "2024-03-05T00:30:00.000Z",
        },
        {
          date: "2024-03-04",
          time: "09:55",
          description: "Shipper created a label, UPS has not received the package yet.",
          location: "US",
          code: "MP",
          status: "pending",
          occurred_at: "2024-03-04T15:55:00.000Z",
        },
      ],
    });
  });

  it("track delivered: delivered, the exception on the way kept, no estimate", async () => {
    const { data } = await upsAdapter.track(context(fakeHttp(ok(trackDelivered))), "1ZA1B2C30392249850");
    expect(data.status).toBe("delivered");
    expect(data.estimated_delivery).toBeNull();
    expect(data.meta).toEqual({ service_name: "UPS Ground", delivery_location: "Front Door" });
    expect(data.events.map((e) => [e.code, e.status, e.occurred_at])).toEqual([
      ["FS", "delivered", "2024-03-07T20:12:00.000Z"],
      ["OT", "out_for_delivery", "2024-03-07T14:15:00.000Z"],
      ["RS", "delivery_failed", "2024-03-06T22:30:00.000Z"],
      ["AR", "in_transit", "2024-03-06T11:10:00.000Z"],
    ]);
  });

  it("track not found (TW0001 in a 200) and invalid (TV1002): tracking_not_found with UPS's code", async () => {
    const notFound = await failure(upsAdapter.track(context(fakeHttp(ok(trackNotFound))), "1ZA1B2C30376543213"));
    expect(notFound.messages).toEqual([
      {
        code: "tracking_not_found",
        level: "error",
        message: "Tracking Information Not Found",
        details: { tracking_number: "1ZA1B2C30376543213", carrier_code: "TW0001" },
      },
    ]);
    const invalid = await failure(
      upsAdapter.track(context(fakeHttp({ status: 400, body: trackInvalid })), "1ZA1B2C30376543214"),
    );
    expect(invalid.messages[0]).toMatchObject({
      code: "tracking_not_found",
      message: "Invalid inquiry number",
      details: { carrier_code: "TV1002" },
    });
  });
});

describe("UPS failures as our codes", () => {
  const upsBody = (code: string, message: string) => ({ response: { errors: [{ code, message }] } });

  it("a 5xx with UPS's body: UPS's message, code carrier_unavailable", async () => {
    const error = await failure(
      upsAdapter.rate(
        context(fakeHttp({ status: 503, body: upsBody("9370701", "The system is temporarily unavailable.") })),
        upsRateRequest(),
      ),
    );
    expect(error.messages).toEqual([
      {
        code: "carrier_unavailable",
        level: "error",
        message: "The system is temporarily unavailable.",
        details: { status: 503, carrier_code: "9370701" },
      },
    ]);
  });

  it("a 5xx that is not UPS's (a gateway's HTML page): carrier_unavailable", async () => {
    const error = await failure(
      upsAdapter.track(context(fakeHttp({ status: 502, body: "<html>Bad Gateway</html>" })), "1ZA1B2C30392249850"),
    );
    expect(error.code).toBe("carrier_unavailable");
  });

  it("250003 (invalid access license) on a 403: carrier_auth_failed", async () => {
    const error = await failure(
      upsAdapter.rate(
        context(fakeHttp({ status: 403, body: upsBody("250003", "Invalid Access License number") })),
        upsRateRequest(),
      ),
    );
    expect(error.messages[0]).toMatchObject({ code: "carrier_auth_failed", details: { carrier_code: "250003" } });
  });

  it("a 403 (Blocked Merchant) on a business call is an account problem with UPS's text, not retried", async () => {
    const http = fakeHttp({ status: 403, body: upsBody("9999", "The merchant is blocked for this API.") });
    const error = await failure(upsAdapter.ship(context(http), upsShipRequest()));
    expect(error.messages).toEqual([
      {
        code: "carrier_auth_failed",
        level: "error",
        message:
          "UPS refused this account (HTTP 403, Blocked Merchant): The merchant is blocked for this API. Ask UPS to unblock the account or the app; trying again will not help.",
        details: { status: 403, carrier_code: "9999" },
      },
    ]);
    expect(http.business).toHaveLength(1);
    const bare = await failure(
      upsAdapter.rate(context(fakeHttp({ status: 403, body: "<html>Forbidden</html>" })), upsRateRequest()),
    );
    expect(bare.messages[0]).toMatchObject({ code: "carrier_auth_failed", details: { status: 403 } });
    expect(bare.message).toMatch(/^UPS refused this account \(HTTP 403, Blocked Merchant\)\. Ask UPS/);
  });

  it("a 401 is retried once with a new token; a second 401 is carrier_auth_failed", async () => {
    const unauthorized = { status: 401, body: upsBody("250002", "Invalid Authentication Information.") };
    const http = fakeHttp(unauthorized, ok(rateSuccess));
    const { data } = await upsAdapter.rate(context(http), upsRateRequest());
    expect(data).toHaveLength(2);
    expect(http.requests.map((r) => r.operation)).toEqual(["auth", "rate", "auth", "rate"]);

    const twice = fakeHttp(unauthorized, unauthorized);
    const error = await failure(upsAdapter.rate(context(twice), upsRateRequest()));
    expect(error.messages[0]).toMatchObject({ code: "carrier_auth_failed", details: { carrier_code: "250002" } });
    expect(twice.business).toHaveLength(2);
  });

  it("a 200 without the body UPS documents, or not JSON: carrier_bad_response", async () => {
    expect((await failure(upsAdapter.rate(context(fakeHttp(ok({}))), upsRateRequest()))).code).toBe(
      "carrier_bad_response",
    );
    expect((await failure(upsAdapter.rate(context(fakeHttp(ok("{not json"))), upsRateRequest()))).code).toBe(
      "carrier_bad_response",
    );
    expect(
      (await failure(upsAdapter.ship(context(fakeHttp(ok({ ShipmentResponse: {} }))), upsShipRequest()))).code,
    ).toBe("carrier_bad_response");
  });

  it("credentials the connection holds that are not UPS's shape: carrier_auth_failed, nothing sent", async () => {
    const http = fakeHttp();
    const ctx = context(http);
    ctx.connection.credentials = { client_id: "x" };
    expect((await failure(upsAdapter.rate(ctx, upsRateRequest()))).code).toBe("carrier_auth_failed");
    expect(http.requests).toHaveLength(0);
  });
});
