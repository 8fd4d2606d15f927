import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PDFDocument } from "pdf-lib";
import { dhlExpressAdapter } from "@/lib/carriers/dhl_express/adapter";
import { buildRateRequest } from "@/lib/carriers/dhl_express/rating";
import { buildShipRequest } from "@/lib/carriers/dhl_express/ship";
import { CarrierError } from "@/lib/carriers/types";
import {
  DHL_CREDENTIALS,
  dhlContext,
  dhlDomesticShip,
  dhlInternationalRate,
  dhlInternationalShip,
  recordedDhl,
  type Recorded,
} from "@/test/dhl-context";

/**
 * The DHL Express adapter against recorded MyDHL payloads: DHL's own samples from its OpenAPI file (rates, a domestic
 * shipment, tracking, its refusals and its not-found) and the requests our builders make, both held to the schema by
 * test/emulator/contract.test.ts.
 */

const fixture = (name: string) =>
  JSON.parse(readFileSync(`lib/carriers/dhl_express/fixtures/${name}`, "utf8")) as Record<string, unknown>;
const answering = (r: Recorded) => recordedDhl(() => r);
const problem = (status: number, name: string): Recorded => ({
  status,
  body: fixture(name),
  headers: { "content-type": "application/problem+json" },
});

async function refusal(p: Promise<unknown>): Promise<CarrierError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CarrierError);
  return err as CarrierError;
}

const shipDate = { date: "2024-03-04", time_zone: "America/Chicago" };
const settings = { accountNumber: "123456789", shipDate: "2024-03-04", cutoffTime: "17:00" };

describe("requests", () => {
  it("rate and ship bodies are the recorded ones (held to DHL's schema by the contract test)", () => {
    expect(buildRateRequest(dhlInternationalRate({ ship_date: shipDate }), settings).body).toEqual(
      fixture("rate-request-international.json"),
    );
    expect(
      buildShipRequest(dhlInternationalShip({ ship_date: shipDate }), {
        ...settings,
        labelStock: "4x6",
        paperlessTrade: true,
      }).body,
    ).toEqual(fixture("ship-request-international.json"));
  });

  it("every call is HTTP Basic with DHL's interface version, a message reference, and the account in the body", async () => {
    const http = answering({ status: 200, body: fixture("rate-response-success.json") });
    await dhlExpressAdapter.rate(dhlContext(http), dhlInternationalRate());
    const [req] = http.requests;
    expect(req!.url).toBe("https://express.api.dhl.com/mydhlapi/test/rates");
    expect(req!.headers).toMatchObject({
      authorization: `Basic ${Buffer.from("apiS3cretUser:pa55-test").toString("base64")}`,
      "x-version": "3.1.0",
      "content-type": "application/json",
    });
    expect(req!.headers!["message-reference"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(req!.body as string).accounts).toEqual([{ typeCode: "shipper", number: "123456789" }]);
  });

  it("plannedShippingDateAndTime is the origin's day at the cut-off with its offset, as the spec writes it", () => {
    const sydney = dhlInternationalRate({ ship_date: { date: "2024-07-01", time_zone: "Australia/Sydney" } });
    expect(
      buildRateRequest(sydney, { ...settings, shipDate: "2024-07-01", cutoffTime: "16:30" }).body
        .plannedShippingDateAndTime,
    ).toBe("2024-07-01T16:30:00 GMT+10:00");
    const london = dhlInternationalRate({ ship_date: { date: "2024-01-15", time_zone: "Europe/London" } });
    expect(buildRateRequest(london, { ...settings, shipDate: "2024-01-15" }).body.plannedShippingDateAndTime).toBe(
      "2024-01-15T17:00:00 GMT+00:00",
    );
  });

  it("a quote without the city is refused naming the field; a label without any phone too", async () => {
    const req = dhlInternationalRate();
    const err = await refusal(
      dhlExpressAdapter.rate(dhlContext(answering({ status: 200, body: {} })), {
        ...req,
        recipient: { ...req.recipient, city: "" },
      }),
    );
    expect(err.messages[0]).toMatchObject({ code: "DHL_FIELD_REQUIRED", details: { field: "recipient.city" } });
    const ship = dhlInternationalShip();
    const noPhone = await refusal(
      dhlExpressAdapter.ship(dhlContext(answering({ status: 201, body: {} })), {
        ...ship,
        shipper: { ...ship.shipper, phone_number: null },
        recipient: { ...ship.recipient, phone_number: null },
      }),
    );
    expect(noPhone.messages[0]).toMatchObject({ details: { field: "shipper.phone_number" } });
  });

  it("a service that is no DHL product code (a name from another carrier, `__proto__`) is refused before DHL", async () => {
    for (const service of ["FEDEX_2_DAY", "__proto__", ""]) {
      const http = answering({ status: 201, body: {} });
      const err = await refusal(dhlExpressAdapter.ship(dhlContext(http), dhlDomesticShip({ service })));
      expect(err.messages[0]).toMatchObject({ code: "DHL_PRODUCT_CODE", details: { field: "service" } });
      expect(http.requests).toHaveLength(0);
    }
  });

  it("PNG labels are refused before anything is bought: DHL prints PDF and ZPL", async () => {
    const http = answering({ status: 201, body: {} });
    const err = await refusal(dhlExpressAdapter.ship(dhlContext(http), dhlDomesticShip({ label_type: "PNG" })));
    expect(err.messages[0]).toMatchObject({ code: "DHL_LABEL_TYPE", details: { field: "label_type" } });
    expect(http.requests).toHaveLength(0);
  });

  it("insurance goes as DHL's II service; an unknown option and a signature are said, not dropped", () => {
    const { body, messages } = buildRateRequest(
      dhlInternationalRate({
        ship_date: shipDate,
        options: { insurance: { amount: 250, currency: "usd" }, signature_confirmation: "adult", gift_wrap: true },
      }),
      settings,
    );
    expect(body.valueAddedServices).toEqual([{ serviceCode: "II", value: 250, currency: "USD" }]);
    expect(messages.map((m) => m.details?.field)).toEqual(["options.gift_wrap", "options.signature_confirmation"]);
  });
});

describe("rates (DHL's sample answer)", () => {
  it("prices in the billing currency (BILLC), surcharges from the detailed breakdown, transit from capabilities", async () => {
    const http = answering({ status: 200, body: fixture("rate-response-success.json") });
    const { data, messages } = await dhlExpressAdapter.rate(dhlContext(http), dhlInternationalRate());
    expect(messages).toEqual([]);
    const p = data.find((q) => q.service === "P")!;
    expect(p).toMatchObject({
      service_name: "DHL Express Worldwide",
      currency: "GBP",
      base_charge: 130,
      duties_and_taxes: 0,
      total_charge: 157.95,
      extra_charges: [
        { name: "EMERGENCY SITUATION", amount: 0.27, currency: "GBP" },
        { name: "FUEL SURCHARGE", amount: 27.68, currency: "GBP" },
      ],
    });
    expect(p.transit_days).toBeGreaterThan(0);
    expect(p.estimated_delivery).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("keeps only the services asked for", async () => {
    const http = answering({ status: 200, body: fixture("rate-response-success.json") });
    const { data } = await dhlExpressAdapter.rate(dhlContext(http), dhlInternationalRate({ services: ["P"] }));
    expect(data.map((q) => q.service)).toEqual(["P"]);
    expect(JSON.parse(http.requests[0]!.body as string).productCode).toBe("P");
  });

  it("a refusal is DHL's problem+json, its words, the HTTP status as code when the text carries none", async () => {
    const err = await refusal(
      dhlExpressAdapter.rate(dhlContext(answering(problem(400, "rate-response-error.json"))), dhlInternationalRate()),
    );
    expect(err.messages).toEqual([
      {
        code: "400",
        level: "error",
        message: "The account number is not found or invalid. Please check the account number and retry.",
        details: { status: 400, instance: "/expressapi/rates" },
      },
    ]);
  });
});

describe("shipments (DHL's sample answers)", () => {
  it("reads the waybill number and joins the label documents into one PDF", async () => {
    const http = answering({ status: 201, body: fixture("ship-response-domestic.json") });
    const { data, messages } = await dhlExpressAdapter.ship(dhlContext(http), dhlDomesticShip());
    expect(messages).toEqual([]);
    expect(data).toMatchObject({ tracking_number: "5374534546", shipment_identifier: "5374534546", documents: [] });
    expect(data.meta.piece_tracking_numbers).toEqual(["JD014600004617230779"]);
    expect((await PDFDocument.load(data.label.bytes)).getPageCount()).toBe(2);
  });

  it("DHL's Paperless Trade sample: label pages joined, the invoice kept, no warning (DHL lists no services)", async () => {
    const body = fixture("ship-response-paperless.json");
    const ship = (answer: Record<string, unknown>) =>
      dhlExpressAdapter.ship(dhlContext(answering({ status: 201, body: answer })), dhlInternationalShip());
    const taken = await ship(body);
    expect(taken.data.tracking_number).toBe("5374534616");
    expect(taken.data.documents.map((d) => [d.type, d.format, d.name])).toEqual([
      ["commercial_invoice", "PDF", "invoice"],
    ]);
    expect(taken.data.charge).toBeNull();
    expect(taken.messages).toEqual([]);
    // Services listed without WY: DHL shipped without Paperless Trade, and the shipper is told to print the invoice.
    const listed = { ...body, shipmentDetails: [{ valueAddedServices: [{ serviceCode: "II" }] }] };
    expect((await ship(listed)).messages).toMatchObject([{ code: "DHL_PAPERLESS_NOT_TAKEN", level: "warning" }]);
    const withWy = { ...body, shipmentDetails: [{ valueAddedServices: [{ serviceCode: "WY" }] }] };
    expect((await ship(withWy)).messages).toEqual([]);
  });

  it("several problems: each of DHL's codes, the first as the refusal", async () => {
    const err = await refusal(
      dhlExpressAdapter.ship(
        dhlContext(answering(problem(400, "ship-response-multiple.json"))),
        dhlInternationalShip(),
      ),
    );
    expect(err.messages.map((m) => m.code)).toEqual(["7120", "7127", "7008", "400104", "7147", "7147", "7147"]);
    expect(err.messages[0]!.message).toMatch(/^Required either #\/outputImageProperties\/imageOptions/);
  });

  it("a wrong date (998) and a schema refusal (422) in DHL's words", async () => {
    const date = await refusal(
      dhlExpressAdapter.ship(dhlContext(answering(problem(400, "ship-response-error.json"))), dhlInternationalShip()),
    );
    expect(date.messages[0]).toMatchObject({ code: "998", message: expect.stringMatching(/^ShipTimeStamp/) });
    const schema = await refusal(
      dhlExpressAdapter.ship(
        dhlContext(answering(problem(422, "ship-response-validation.json"))),
        dhlInternationalShip(),
      ),
    );
    expect(schema.messages[0]).toMatchObject({ code: "422", details: { status: 422 } });
  });

  it("an answer without a label, or with a label that is not what was bought, is a bad response", async () => {
    const noLabel = await refusal(
      dhlExpressAdapter.ship(
        dhlContext(answering({ status: 201, body: { shipmentTrackingNumber: "1234567890", documents: [] } })),
        dhlDomesticShip(),
      ),
    );
    expect(noLabel.code).toBe("carrier_bad_response");
    const sample = fixture("ship-response-domestic.json");
    const wrong = await refusal(
      dhlExpressAdapter.ship(
        dhlContext(answering({ status: 201, body: sample })),
        dhlDomesticShip({ label_type: "ZPL" }),
      ),
    );
    expect(wrong.messages[0]!.message).toMatch(/not ZPL/);
  });
});

describe("tracking (DHL's sample answers)", () => {
  it("events newest first with DHL's codes, service areas and our statuses", async () => {
    const http = answering({ status: 200, body: fixture("track-response.json") });
    const { data } = await dhlExpressAdapter.track(dhlContext(http), "1234567890");
    expect(http.requests[0]!.url).toBe(
      "https://express.api.dhl.com/mydhlapi/test/shipments/1234567890/tracking?trackingView=all-checkpoints&levelOfDetail=shipment&requestGMTOffsetPerEvent=true",
    );
    expect(data.status).toBe("delivered");
    expect(data.events.map((e) => e.code)).toEqual([
      "OK", "WC", "AR", "DF", "PL", "CR", "AF", "RR", "RR", "DF", "PL", "AF", "PU",
    ]); // prettier-ignore
    expect(data.events[0]).toMatchObject({
      date: "2023-08-10",
      time: "11:59",
      status: "delivered",
      occurred_at: "2023-08-10T11:59:23.000Z",
    });
    expect(data.events.at(-1)).toMatchObject({ code: "PU", location: "SYDNEY-AU", status: "picked_up" });
    expect(data.estimated_delivery).toBe("2023-08-11");
  });

  it("an event's GMT offset places it in time; without one it is read as UTC", async () => {
    const body = fixture("track-response.json") as { shipments: { events: Record<string, unknown>[] }[] };
    body.shipments[0]!.events[0]!.GMTOffset = "+10:00";
    const { data } = await dhlExpressAdapter.track(dhlContext(answering({ status: 200, body })), "1234567890");
    expect(data.events.at(-1)!.occurred_at).toBe("2023-08-09T03:56:21.000Z");
  });

  it("DHL's 404 'No data found' is tracking_not_found", async () => {
    const err = await refusal(
      dhlExpressAdapter.track(dhlContext(answering(problem(404, "track-response-not-found.json"))), "1251820953"),
    );
    expect(err.messages[0]).toMatchObject({
      code: "tracking_not_found",
      message: "No data found",
      details: { tracking_number: "1251820953" },
    });
  });
});

describe("faults on the wire", () => {
  it("401 is carrier_auth_failed (Basic: nothing to refresh), once", async () => {
    const http = answering({
      status: 401,
      body: { title: "Unauthorized", status: "401", detail: "Invalid credentials" },
    });
    const err = await refusal(dhlExpressAdapter.rate(dhlContext(http), dhlInternationalRate()));
    expect(err.messages[0]).toMatchObject({ code: "carrier_auth_failed", details: { status: 401 } });
    expect(http.requests).toHaveLength(1);
  });

  it("5xx is carrier_unavailable with DHL's code; a 200 that is not JSON is carrier_bad_response", async () => {
    const down = await refusal(
      dhlExpressAdapter.rate(
        dhlContext(answering({ status: 500, body: { detail: "999: Process failure occurred.", status: "500" } })),
        dhlInternationalRate(),
      ),
    );
    expect(down.messages[0]).toMatchObject({ code: "carrier_unavailable", details: { carrier_code: "999" } });
    const garbage = await refusal(
      dhlExpressAdapter.rate(dhlContext(answering({ status: 200, body: "<html>" })), dhlInternationalRate()),
    );
    expect(garbage.code).toBe("carrier_bad_response");
  });

  it("credentials changed behind the API's back are carrier_auth_failed before any call", async () => {
    const http = answering({ status: 200, body: {} });
    const err = await refusal(
      dhlExpressAdapter.rate(
        dhlContext(http, { credentials: { ...DHL_CREDENTIALS, password: "" } }),
        dhlInternationalRate(),
      ),
    );
    expect(err.code).toBe("carrier_auth_failed");
    expect(http.requests).toHaveLength(0);
  });
});

describe("declarations", () => {
  it("declares no void, and says why cancelling a bought label costs nothing", () => {
    expect(dhlExpressAdapter.capabilities).toEqual(["rates", "ship", "track", "address_validation"]);
    expect("void" in dhlExpressAdapter).toBe(false);
    expect(dhlExpressAdapter.unvoidable_note).toMatch(/only once it scans the parcel/);
    expect(dhlExpressAdapter.label_types).toEqual(["PDF", "ZPL"]);
    expect(dhlExpressAdapter.label_sizes).toEqual(["4x6", "letter"]);
  });

  it("a letter connection prints PDF labels on DHL's sheet template; ZPL stays on the label", () => {
    const template = (type: "PDF" | "ZPL") =>
      buildShipRequest(dhlDomesticShip({ label_type: type }), {
        ...settings,
        labelStock: "letter",
        paperlessTrade: true,
      }).body.outputImageProperties!.imageOptions![0]!.templateName;
    expect(template("PDF")).toBe("ECOM26_84_A4_001");
    expect(template("ZPL")).toBe("ECOM26_84_001");
  });
});
