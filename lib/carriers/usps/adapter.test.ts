import { readFileSync } from "node:fs";
import { load as loadYaml } from "js-yaml";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fieldsOf } from "@/lib/client/schema-form";
import type { CarrierResponse } from "@/lib/carriers/http/client";
import { CarrierError } from "@/lib/carriers/types";
import { errorFromResponse, uspsErrors } from "@/lib/carriers/usps/errors";
import { buildLabelRequest, idempotencyKey, parseLabelResponse } from "@/lib/carriers/usps/labels";
import { checkRefund } from "@/lib/carriers/usps/cancel";
import type { AdapterContext } from "@/lib/carriers/types";
import { parseRateResponse, transitDays } from "@/lib/carriers/usps/rating";
import { measures, processingCategory } from "@/lib/carriers/usps/wire";
import { parseTrackResponse, plainText, trackingNumberOf } from "@/lib/carriers/usps/tracking";
import { uspsConfigSchema, readUspsConfig } from "@/lib/carriers/usps/config";
import { uspsCredentialsSchema } from "@/lib/carriers/usps/auth";
import { uspsInternationalShipRequest, uspsShipRequest, USPS_CREDENTIALS } from "@/test/usps-context";
import { upsCustoms } from "@/test/ups-context";
import { testParcel } from "@/test/sandbox-context";

/** The USPS adapter's parsers and builders against its recorded fixtures (lib/carriers/usps/fixtures). */

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(`lib/carriers/usps/fixtures/${name}`, "utf8")) as unknown;

function response(status: number, body: unknown): CarrierResponse {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return {
    status,
    headers: new Headers(),
    body: new TextEncoder().encode(text),
    text: () => text,
    json: <T>() => JSON.parse(text) as T,
  };
}

describe("rates", () => {
  it("reads transit days defensively from the commitment's text", () => {
    expect(transitDays("2 Days")).toBe(2);
    expect(transitDays("1-Day")).toBe(1);
    expect(transitDays("3-5 Days")).toBe(5);
    expect(transitDays("NO STD")).toBe(0);
    expect(transitDays("")).toBe(0);
    expect(transitDays(undefined)).toBe(0);
    expect(transitDays({ name: "2 Days" })).toBe(0);
  });

  it("quotes each mail class at its cheapest option from the recorded answer, cheapest first", () => {
    const { quotes } = parseRateResponse(fixture("rate-response-domestic.json"), []);
    expect(quotes.map((q) => q.total_charge)).toEqual([...quotes.map((q) => q.total_charge)].sort((a, b) => a - b));
    expect(quotes.every((q) => q.currency === "USD" && q.transit_days > 0)).toBe(true);
  });

  it("quotes the processing category the label will declare, not a cheaper one", () => {
    const any = parseRateResponse(fixture("rate-response-domestic.json"), []).quotes;
    const machinable = parseRateResponse(fixture("rate-response-domestic.json"), [], "MACHINABLE").quotes;
    const non = parseRateResponse(fixture("rate-response-domestic.json"), [], "NON_MACHINABLE").quotes;
    const price = (qs: typeof any, code: string) => qs.find((q) => q.service === code)!.total_charge;
    const code = non.find((q) => price(non, q.service) > price(machinable, q.service))?.service;
    expect(code).toBeDefined();
    expect(price(any, code!)).toBe(price(machinable, code!));
    expect(price(non, code!)).toBeGreaterThan(price(machinable, code!));
  });

  it("a nonstandard parcel is quoted USPS's NONSTANDARD price, the category shipping options answers since 2025", () => {
    // shipping-options.yaml `processingCategory`: NON_MACHINABLE "will no longer be returned as of 01/19/2025" in
    // favour of NONSTANDARD (the same PTR code 5); the labels file converts a NON_MACHINABLE label to NONSTANDARD.
    const option = (category: string, price: number) => ({
      totalBasePrice: price,
      totalPrice: price,
      rates: [{ price, processingCategory: category, rateIndicator: "SP", fees: [] }],
      extraServices: [],
    });
    const answer = {
      pricingOptions: [
        {
          shippingOptions: [
            {
              mailClass: "USPS_GROUND_ADVANTAGE",
              rateOptions: [option("MACHINABLE", 9.5), option("NONSTANDARD", 13.7)],
            },
          ],
        },
      ],
    };
    const big = measures(testParcel({ weight: 30, weight_unit: "LB", length: 30, width: 20, height: 16 }));
    const category = processingCategory(big);
    const { quotes } = parseRateResponse(answer, [], category);
    expect(quotes[0]!.total_charge).toBe(13.7);
  });

  it("quotes USPS's own example answer, which has no totalPrice (sent only when extra services were asked for)", () => {
    // shipping-options.yaml RateOptions.totalPrice: "only returned when `extraServices` are passed in the request";
    // totalBasePrice is "the price of the rate, fees, and pound postage" (its example: 6.17 + a 3.00 fee = 9.17).
    const spec = loadYaml(readFileSync("test/emulator/specs/usps/shipping-options.yaml", "utf8")) as {
      components: { examples: Record<string, { value: unknown }> };
    };
    const { quotes } = parseRateResponse(spec.components.examples.DomesticOutboundOptionsExample!.value, []);
    expect(quotes).toHaveLength(1);
    expect(quotes[0]).toMatchObject({
      service: "PARCEL_SELECT",
      base_charge: 6.17,
      total_charge: 11.79,
      extra_charges: [
        { name: "Nonstandard Length > 22", amount: 3, currency: "USD" },
        { name: "Return Receipt Electronic", amount: 2.62, currency: "USD" },
      ],
    });
    // Without extra services: the total is the base price, its fees within it.
    const bare = parseRateResponse(
      {
        pricingOptions: [
          {
            shippingOptions: [
              {
                mailClass: "PRIORITY_MAIL",
                rateOptions: [{ totalBasePrice: 10.4, rates: [{ price: 10.4, fees: [] }], extraServices: [] }],
              },
            ],
          },
        ],
      },
      [],
    ).quotes;
    expect(bare).toEqual([
      expect.objectContaining({ service: "PRIORITY_MAIL", base_charge: 10.4, total_charge: 10.4 }),
    ]);
  });

  it("leaves out classes it does not sell, and refuses an answer without pricing options", () => {
    const { quotes } = parseRateResponse(fixture("rate-response-international.json"), []);
    expect(quotes.map((q) => q.service)).not.toContain("GLOBAL_EXPRESS_GUARANTEED");
    expect(() => parseRateResponse({}, [])).toThrow(CarrierError);
  });
});

describe("labels", () => {
  it("reads the recorded domestic and international answers", () => {
    const dom = parseLabelResponse(fixture("label-response-domestic.json"), {
      service: "PRIORITY_MAIL",
      international: false,
      expected: "ZPL",
    });
    expect(dom.trackingNumber).toMatch(/^\d{22}$/);
    expect(dom.charge?.total_charge).toBeGreaterThan(0);
    const intl = parseLabelResponse(fixture("label-response-international.json"), {
      service: "PRIORITY_MAIL_INTERNATIONAL",
      international: true,
      expected: "ZPL",
    });
    expect(intl.trackingNumber).toMatch(/^CP\d{9}US$/);
  });

  it("charges postage plus the extra services USPS bills on top; the package's fees are within postage", () => {
    const answer = {
      ...(fixture("label-response-domestic.json") as Record<string, unknown>),
      postage: 14.4,
      fees: [{ name: "Nonmachinable Surcharge", SKU: "DXQ0XXXXXXXXXX", price: 4.2 }],
      extraServices: [{ name: "Insurance <= $500", SKU: "DX930XXXXXXXXX", price: 3.05 }],
    };
    const { charge } = parseLabelResponse(answer, { service: "PRIORITY_MAIL", international: false, expected: "ZPL" });
    expect(charge).toMatchObject({ base_charge: 10.2, total_charge: 17.45, currency: "USD" });
    expect(charge!.extra_charges).toEqual([
      { name: "Nonmachinable Surcharge", amount: 4.2, currency: "USD" },
      { name: "Insurance <= $500", amount: 3.05, currency: "USD" },
    ]);
    // International labels name their extra services `serviceName`.
    const intl = parseLabelResponse(
      {
        ...(fixture("label-response-international.json") as Record<string, unknown>),
        postage: 40,
        extraServices: [{ serviceName: "Insurance", price: 2.5 }],
      },
      { service: "PRIORITY_MAIL_INTERNATIONAL", international: true, expected: "ZPL" },
    );
    expect(intl.charge).toMatchObject({ total_charge: 42.5, extra_charges: [{ name: "Insurance", amount: 2.5 }] });
  });

  it("refuses an answer whose label is not the format asked for", () => {
    expect(() =>
      parseLabelResponse(fixture("label-response-domestic.json"), {
        service: "PRIORITY_MAIL",
        international: false,
        expected: "PDF",
      }),
    ).toThrow("USPS sent a label that is not PDF.");
  });

  it("derives one UUID per shipment key and payload", () => {
    const body = { packageDescription: { mailClass: "PRIORITY_MAIL" } };
    expect(idempotencyKey("shp_1", body)).toBe(idempotencyKey("shp_1", { ...body }));
    expect(idempotencyKey("shp_1", body)).not.toBe(idempotencyKey("shp_2", body));
    expect(idempotencyKey("shp_1", body)).not.toBe(
      idempotencyKey("shp_1", { packageDescription: { mailClass: "MEDIA_MAIL" } }),
    );
    expect(idempotencyKey("shp_1", body)).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it("cuts customs texts to USPS's lengths and says so", () => {
    const built = buildLabelRequest(
      uspsInternationalShipRequest({
        customs: upsCustoms({ content_type: "other", content_description: "Hand-made wooden toys for kids" }),
      }),
      "2026-01-05",
    );
    const form = (built.body as { customsForm: { customsContentType: string; contentComments: string } }).customsForm;
    expect(form.customsContentType).toBe("OTHER");
    expect(form.contentComments).toBe("Hand-made wooden toys for");
    expect(built.messages.map((m) => m.details?.field)).toContain("customs.content_description");
  });

  it("labels Priority Mail Express at its single-piece rate indicator PA, not SP", () => {
    // domestic-labels.yaml `rateIndicator`: "PA - Priority Mail Express Single Piece" (its PME examples send PA);
    // international-labels.yaml: "PA - Priority Mail Express International Single Piece". SP is other classes'.
    const dom = buildLabelRequest(uspsShipRequest({ service: "PRIORITY_MAIL_EXPRESS" }), "2026-01-05");
    expect((dom.body as { packageDescription: { rateIndicator: string } }).packageDescription.rateIndicator).toBe("PA");
    const intl = buildLabelRequest(
      uspsInternationalShipRequest({ service: "PRIORITY_MAIL_EXPRESS_INTERNATIONAL" }),
      "2026-01-05",
    );
    expect((intl.body as { packageDescription: { rateIndicator: string } }).packageDescription.rateIndicator).toBe(
      "PA",
    );
    const priority = buildLabelRequest(uspsShipRequest(), "2026-01-05");
    expect((priority.body as { packageDescription: { rateIndicator: string } }).packageDescription.rateIndicator).toBe(
      "SP",
    );
  });

  it("writes the destination country's name in `country`, its ISO code in `countryISOAlpha2Code`", () => {
    // international-labels.yaml InternationalAddress: `country` "is the country name used in an international
    // address" (its examples: country Australia, countryISOAlpha2Code AU); the label prints it.
    const built = buildLabelRequest(uspsInternationalShipRequest(), "2026-01-05");
    const to = (built.body as { toAddress: { country: string; countryISOAlpha2Code: string } }).toAddress;
    expect(to.countryISOAlpha2Code).toBe("GB");
    expect(to.country).toBe("United Kingdom");
  });

  it("a label to a territory USPS serves as domestic mail names it as the state (DomesticAddress.state)", () => {
    // domestic-labels.yaml State: the two-letter code, PR, GU, VI, AS, MP, FM, MH and PW among them; our addresses in
    // Puerto Rico carry country_code PR and need no state_code (lib/schemas/address.ts requires one for US, CA, AU).
    const req = uspsShipRequest();
    const built = buildLabelRequest(
      {
        ...req,
        recipient: { ...req.recipient, country_code: "PR", state_code: "", city: "San Juan", postal_code: "00901" },
      },
      "2026-01-05",
    );
    expect((built.body as { toAddress: { state: string; ZIPCode: string } }).toAddress).toMatchObject({
      state: "PR",
      ZIPCode: "00901",
    });
  });

  it("names every party as USPS requires: first and last name, or a firm", () => {
    // domestic-labels.yaml DomesticLabelToAddress / DomesticLabelAddress: "The First and Last Name or Firm are always
    // required." A recipient known by one word ("Reception", "Cher") and no company still has to be one of the two.
    const req = uspsShipRequest();
    const built = buildLabelRequest(
      { ...req, recipient: { ...req.recipient, person_name: "Reception", company_name: null } },
      "2026-01-05",
    );
    const to = (built.body as { toAddress: Record<string, unknown> }).toAddress;
    expect(to).toMatchObject({ firm: "Reception" });
    expect(to).not.toHaveProperty("firstName");
    expect(to).not.toHaveProperty("lastName");
    // With a company beside it, the one word stays the person's and the company is the firm.
    const withFirm = buildLabelRequest(
      { ...req, recipient: { ...req.recipient, person_name: "Reception", company_name: "Acme" } },
      "2026-01-05",
    );
    expect((withFirm.body as { toAddress: Record<string, unknown> }).toAddress).toMatchObject({
      firstName: "Reception",
      firm: "Acme",
    });
  });

  it("refuses a ZIP Code USPS cannot read", () => {
    const req = uspsShipRequest();
    expect(() =>
      buildLabelRequest({ ...req, recipient: { ...req.recipient, postal_code: "7310" } }, "2026-01-05"),
    ).toThrow("recipient: USPS needs a 5-digit ZIP Code.");
  });
});

describe("tracking", () => {
  it("drops HTML from mail class names and event texts, decoding USPS's entities", () => {
    expect(plainText("Priority Mail<SUP>&#153;</SUP>")).toBe("Priority Mail™");
    expect(plainText("USPS Ground Advantage<SUP>&reg;</SUP> &amp; more")).toBe("USPS Ground Advantage® & more");
    expect(plainText("<b>x</b>&#0;&#xD800;y")).toBe("xy");
  });

  it("reads the recorded answer newest first, with local times and places", () => {
    const { data } = parseTrackResponse(fixture("track-response-delivered.json"), "9205590000000100000018");
    expect(data.status).toBe("delivered");
    expect(data.events[0]).toMatchObject({ code: "01", status: "delivered", location: "OKLAHOMA CITY, OK 73108" });
    expect(data.events.at(-1)!.code).toBe("GX");
    expect(data.events[0]!.time).toMatch(/^\d{2}:\d{2}$/);
  });

  it("strips HTML from a mail class as USPS's answers carry it", () => {
    const { data } = parseTrackResponse(
      { trackingNumber: "9400109104250532908587", mailClass: "Priority Mail<SUP>&#174;</SUP>", trackingEvents: [] },
      "9400109104250532908587",
    );
    expect(data).toMatchObject({ status: "pending", events: [], meta: { mail_class: "Priority Mail®" } });
  });

  it("orders by GMTTimestamp, else the local time with GMTOffset; an event with neither is left out", () => {
    const { data } = parseTrackResponse(
      {
        trackingEvents: [
          { eventCode: "03", eventTimestamp: "2026-03-02T09:00:00", GMTOffset: "-06:00" },
          { eventCode: "SF", eventTimestamp: "2026-03-02T10:30:00-05:00", GMTTimestamp: "2026-03-02T15:30:00" },
          { eventCode: "GX", eventTimestamp: "2026-03-01T18:00:00" },
        ],
      },
      "9400109104250532908587",
    );
    expect(data.events.map((e) => [e.code, e.occurred_at, e.date, e.time])).toEqual([
      ["SF", "2026-03-02T15:30:00.000Z", "2026-03-02", "10:30"],
      ["03", "2026-03-02T15:00:00.000Z", "2026-03-02", "09:00"],
    ]);
    expect(data.status).toBe("in_transit");
  });

  it("reads a GMTOffset written as USPS's file writes it (-7:00) when an event has no GMTTimestamp", () => {
    // tracking.yaml TrackingEvent.GMTOffset: example "-7:00" (one hour digit).
    const { data } = parseTrackResponse(
      { trackingEvents: [{ eventCode: "03", eventTimestamp: "2026-03-02T09:00:00", GMTOffset: "-7:00" }] },
      "9400109104250532908587",
    );
    expect(data.events.map((e) => [e.code, e.occurred_at])).toEqual([["03", "2026-03-02T16:00:00.000Z"]]);
  });

  it("takes IMpb and S10 numbers, and nothing else", () => {
    expect(trackingNumberOf(" 9400 1091 0425 0532 9085 87 ")).toBe("9400109104250532908587");
    expect(trackingNumberOf("cp100000017us")).toBe("CP100000017US");
    expect(trackingNumberOf("1Z12345E0205271688")).toBeNull();
  });
});

describe("errors", () => {
  it("maps the recorded refusals: USPS's code and detail, auth refusals, not-found", () => {
    const label = errorFromResponse(response(400, fixture("label-response-error.json")));
    expect(label.messages[0]).toMatchObject({
      code: "EMU-400",
      message: "BOUND_PRINTED_MATTER takes at most 15 lb",
      details: { status: 400, field: "packageDescription.weight" },
    });
    const payment = errorFromResponse(response(403, fixture("payment-response-refused.json")), "the payment account X");
    expect(payment.code).toBe("carrier_auth_failed");
    expect(payment.message).toMatch(/^USPS refused the payment account X: /);
    expect(uspsErrors(fixture("track-response-not-found.json"))[0]!.code).toBe("EMU-TRK-404");
  });

  it("a 5xx is unavailable, a body it does not know is a bad response, OAuth errors are read", () => {
    expect(errorFromResponse(response(503, "<html>down</html>")).code).toBe("carrier_unavailable");
    expect(errorFromResponse(response(418, "teapot")).code).toBe("carrier_bad_response");
    expect(uspsErrors({ error: "invalid_client", error_description: "Client authentication failed." })).toEqual([
      { code: "invalid_client", message: "Client authentication failed.", field: null },
    ]);
  });
});

describe("connection schemas", () => {
  it("takes the test credentials and refuses a malformed MID", () => {
    expect(uspsCredentialsSchema.safeParse(USPS_CREDENTIALS).success).toBe(true);
    expect(uspsCredentialsSchema.safeParse({ ...USPS_CREDENTIALS, mid: "12345" }).success).toBe(false);
  });

  it("reads config with defaults and refuses unknown keys", () => {
    expect(readUspsConfig({})).toEqual({ priceType: "COMMERCIAL", cutoffTime: "17:00", refundReviewDays: 30 });
    expect(uspsConfigSchema.safeParse({ refund_days: 3 }).success).toBe(false);
    expect(readUspsConfig({ price_type: "CHEAP" }).priceType).toBe("COMMERCIAL");
  });
});

describe("the connection form", () => {
  it("is generated from the schemas with USPS's names for its fields", () => {
    const fields = fieldsOf(z.toJSONSchema(uspsCredentialsSchema, { io: "input", unrepresentable: "any" }));
    expect(fields.map((f) => [f.name, f.label, f.kind, f.required])).toEqual([
      ["client_id", "Consumer key (client ID)", "text", true],
      ["client_secret", "Consumer secret", "secret", true],
      ["crid", "CRID", "text", true],
      ["mid", "MID", "text", true],
      ["manifest_mid", "Manifest MID", "text", false],
      ["account_type", "Payment account type", "select", true],
      ["account_number", "Payment account number", "text", true],
      ["permit_zip", "Permit ZIP Code", "text", false],
    ]);
    const config = fieldsOf(z.toJSONSchema(uspsConfigSchema, { io: "input", unrepresentable: "any" }));
    expect(config.map((f) => [f.name, f.kind])).toEqual([
      ["price_type", "select"],
      ["cutoff_time", "text"],
      ["refund_review_days", "integer"],
    ]);
  });
});

describe("refund verdicts", () => {
  const requested = new Date("2026-11-01T12:00:00Z");
  const ctxAt = (now: Date) => ({ connection: { config: {} }, now: () => now }) as unknown as AdapterContext;
  const req = {
    tracking_number: "9205590000000100000018",
    shipment_identifier: null,
    refund: { status: "pending" as const, reference: "104660" },
    requested_at: requested,
  };
  const tracked = (codes: string[]) => async () => ({
    data: {
      tracking_number: req.tracking_number,
      status: "in_transit" as const,
      events: codes.map((code) => ({
        date: "2026-11-02",
        time: null,
        description: "",
        location: "",
        code,
        status: "in_transit" as const,
        occurred_at: "2026-11-02T10:00:00Z",
      })),
      estimated_delivery: null,
      meta: {},
    },
    messages: [],
  });
  const day = 24 * 3_600_000;

  it("a listed scan refuses; a label only made, a blank or an unlisted code proves nothing", async () => {
    const soon = ctxAt(new Date(requested.getTime() + day));
    expect((await checkRefund(soon, req, tracked(["03"]))).data.status).toBe("refused");
    for (const codes of [["GX"], ["MA"], [""], ["ZZ"], []]) {
      expect((await checkRefund(soon, req, tracked(codes))).data).toEqual({ status: "pending", reference: "104660" });
    }
  });

  it("no scan within the review window: refunded, said to be inferred", async () => {
    const late = await checkRefund(ctxAt(new Date(requested.getTime() + 30 * day)), req, tracked(["GX"]));
    expect(late.data.status).toBe("refunded");
    expect(late.messages[0]).toMatchObject({ code: "USPS_REFUND_INFERRED", level: "info" });
    const early = await checkRefund(ctxAt(new Date(requested.getTime() + 30 * day - 1)), req, tracked(["GX"]));
    expect(early.data.status).toBe("pending");
  });

  it("a scan's code is read whatever its case and spaces", async () => {
    const soon = ctxAt(new Date(requested.getTime() + day));
    expect((await checkRefund(soon, req, tracked([" sf "]))).data.status).toBe("refused");
  });

  it("USPS not knowing the number is no scan; any other tracking failure is not an answer", async () => {
    const soon = ctxAt(new Date(requested.getTime() + day));
    const unknown = async () => {
      throw new CarrierError("tracking_not_found", "USPS does not know this number.");
    };
    expect((await checkRefund(soon, req, unknown)).data).toEqual({ status: "pending", reference: "104660" });
    const down = async () => {
      throw new CarrierError("carrier_unavailable", "USPS is unavailable.");
    };
    await expect(checkRefund(soon, req, down)).rejects.toMatchObject({ code: "carrier_unavailable" });
    const late = ctxAt(new Date(requested.getTime() + 31 * day));
    await expect(checkRefund(late, req, down)).rejects.toThrow("USPS is unavailable.");
  });
});
