import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canadapostEmulator } from "./canadapost";
import { errataOf, loadContract, specValue } from "./contract";
import { dhlExpressEmulator } from "./dhl_express";
import { fedexEmulator } from "./fedex";
import { startEmulator, type EmulatedCarrier, type Emulator } from "./server";
import { upsEmulator } from "./ups";
import { uspsEmulator } from "./usps";

/**
 * The carriers' published contracts as the judge: every recorded fixture (the payloads the adapters' unit tests send
 * and parse) is what the carrier's schema allows, and the emulator refuses what the schema refuses, in the carrier's
 * own error shape. The emulated journeys (test/*-emulated.test.ts, lib/carriers/ups/emulated.test.ts) check every
 * request an adapter sends and every answer the emulator gives the same way, through the tests' emulator helpers.
 */

const contractOf = (carrier: EmulatedCarrier) => loadContract(carrier.contract!.files);

/**
 * Each fixture: the operation it belongs to, whether it is the request or the answer with its status, and for an
 * answer whose shape depends on the media type asked for (USPS labels), that media type.
 */
const VENDOR_JSON = "application/vnd.usps.labels+json";
const FIXTURES: Record<string, [EmulatedCarrier, string, string, "request" | number, string?]> = {
  "ups/rate-request-domestic.json": [upsEmulator, "POST", "/api/rating/v2409/Shoptimeintransit", "request"],
  "ups/rate-request-international.json": [upsEmulator, "POST", "/api/rating/v2409/Shoptimeintransit", "request"],
  "ups/rate-response-alerts.json": [upsEmulator, "POST", "/api/rating/v2409/Shop", 200],
  "ups/rate-response-canada.json": [upsEmulator, "POST", "/api/rating/v2409/Shop", 200],
  "ups/rate-response-error.json": [upsEmulator, "POST", "/api/rating/v2409/Shop", 400],
  "ups/rate-response-success.json": [upsEmulator, "POST", "/api/rating/v2409/Shop", 200],
  "ups/ship-request-domestic.json": [upsEmulator, "POST", "/api/shipments/v2409/ship", "request"],
  "ups/ship-request-international.json": [upsEmulator, "POST", "/api/shipments/v2409/ship", "request"],
  "ups/ship-response-error.json": [upsEmulator, "POST", "/api/shipments/v2409/ship", 400],
  "ups/ship-response-success.json": [upsEmulator, "POST", "/api/shipments/v2409/ship", 200],
  "ups/track-response-delivered.json": [upsEmulator, "GET", "/api/track/v1/details/1Z", 200],
  "ups/track-response-in-transit.json": [upsEmulator, "GET", "/api/track/v1/details/1Z", 200],
  "ups/track-response-invalid.json": [upsEmulator, "GET", "/api/track/v1/details/1Z", 400],
  "ups/track-response-not-found.json": [upsEmulator, "GET", "/api/track/v1/details/1Z", 200],
  "ups/void-response-already-voided.json": [upsEmulator, "DELETE", "/api/shipments/v2409/void/cancel/1Z", 400],
  "ups/void-response-success.json": [upsEmulator, "DELETE", "/api/shipments/v2409/void/cancel/1Z", 200],
  "ups/void-response-not-voided.json": [upsEmulator, "DELETE", "/api/shipments/v2409/void/cancel/1Z", 200],
  "ups/void-response-partial.json": [upsEmulator, "DELETE", "/api/shipments/v2409/void/cancel/1Z", 200],
  "ups/rate-response-negotiated-not-itemized.json": [upsEmulator, "POST", "/api/rating/v2409/Shop", 200],
  "fedex/address-ambiguous.json": [fedexEmulator, "POST", "/address/v1/addresses/resolve", 200],
  "fedex/address-corrected-suite.json": [fedexEmulator, "POST", "/address/v1/addresses/resolve", 200],
  "fedex/address-not-found.json": [fedexEmulator, "POST", "/address/v1/addresses/resolve", 200],
  "fedex/address-request.json": [fedexEmulator, "POST", "/address/v1/addresses/resolve", "request"],
  "fedex/address-verified.json": [fedexEmulator, "POST", "/address/v1/addresses/resolve", 200],
  "fedex/cancel-already-cancelled.json": [fedexEmulator, "PUT", "/ship/v1/shipments/cancel", 400],
  "fedex/cancel-success.json": [fedexEmulator, "PUT", "/ship/v1/shipments/cancel", 200],
  "fedex/rate-alerts-only.json": [fedexEmulator, "POST", "/rate/v1/rates/quotes", 200],
  "fedex/rate-error.json": [fedexEmulator, "POST", "/rate/v1/rates/quotes", 400],
  "fedex/rate-request-domestic.json": [fedexEmulator, "POST", "/rate/v1/rates/quotes", "request"],
  "fedex/rate-request-international.json": [fedexEmulator, "POST", "/rate/v1/rates/quotes", "request"],
  "fedex/rate-success.json": [fedexEmulator, "POST", "/rate/v1/rates/quotes", 200],
  "fedex/ship-error.json": [fedexEmulator, "POST", "/ship/v1/shipments", 400],
  "fedex/ship-request-domestic.json": [fedexEmulator, "POST", "/ship/v1/shipments", "request"],
  "fedex/ship-request-international.json": [fedexEmulator, "POST", "/ship/v1/shipments", "request"],
  "fedex/ship-success.json": [fedexEmulator, "POST", "/ship/v1/shipments", 200],
  "fedex/track-batch.json": [fedexEmulator, "POST", "/track/v1/trackingnumbers", 200],
  "fedex/track-delivered.json": [fedexEmulator, "POST", "/track/v1/trackingnumbers", 200],
  "fedex/track-request.json": [fedexEmulator, "POST", "/track/v1/trackingnumbers", "request"],
  // DHL's own samples (the spec's examples) beside the requests our builders make.
  "dhl_express/rate-request-international.json": [dhlExpressEmulator, "POST", "/mydhlapi/rates", "request"],
  "dhl_express/rate-request-sample.json": [dhlExpressEmulator, "POST", "/mydhlapi/rates", "request"],
  "dhl_express/rate-response-error.json": [dhlExpressEmulator, "POST", "/mydhlapi/rates", 400],
  "dhl_express/rate-response-success.json": [dhlExpressEmulator, "POST", "/mydhlapi/rates", 200],
  "dhl_express/ship-request-domestic.json": [dhlExpressEmulator, "POST", "/mydhlapi/shipments", "request"],
  "dhl_express/ship-request-international.json": [dhlExpressEmulator, "POST", "/mydhlapi/shipments", "request"],
  "dhl_express/ship-response-domestic.json": [dhlExpressEmulator, "POST", "/mydhlapi/shipments", 201],
  "dhl_express/ship-response-error.json": [dhlExpressEmulator, "POST", "/mydhlapi/shipments", 400],
  "dhl_express/ship-response-paperless.json": [dhlExpressEmulator, "POST", "/mydhlapi/shipments", 201],
  // The spec lists this one among the 201 samples of /shipments; its body is a refusal, checked as the 400 it is.
  "dhl_express/ship-response-multiple.json": [dhlExpressEmulator, "POST", "/mydhlapi/shipments", 400],
  "dhl_express/ship-response-validation.json": [dhlExpressEmulator, "POST", "/mydhlapi/shipments", 422],
  "dhl_express/track-response.json": [dhlExpressEmulator, "GET", "/mydhlapi/shipments/1/tracking", 200],
  "dhl_express/track-response-not-found.json": [dhlExpressEmulator, "GET", "/mydhlapi/shipments/1/tracking", 404],
  "usps/cancel-response-canceled.json": [uspsEmulator, "DELETE", "/labels/v3/label/9205590000000100000018", 200],
  "usps/cancel-response-disputed.json": [uspsEmulator, "DELETE", "/labels/v3/label/9205590000000100000018", 200],
  "usps/label-request-domestic.json": [uspsEmulator, "POST", "/labels/v3/label", "request"],
  "usps/label-request-international.json": [
    uspsEmulator,
    "POST",
    "/international-labels/v3/international-label",
    "request",
  ],
  "usps/label-response-domestic.json": [uspsEmulator, "POST", "/labels/v3/label", 200, VENDOR_JSON],
  "usps/label-response-error.json": [uspsEmulator, "POST", "/labels/v3/label", 400],
  "usps/label-response-international.json": [
    uspsEmulator,
    "POST",
    "/international-labels/v3/international-label",
    201,
    VENDOR_JSON,
  ],
  "usps/payment-request.json": [uspsEmulator, "POST", "/payments/v3/payment-authorization", "request"],
  "usps/payment-response.json": [uspsEmulator, "POST", "/payments/v3/payment-authorization", 200],
  "usps/payment-response-refused.json": [uspsEmulator, "POST", "/payments/v3/payment-authorization", 403],
  "usps/rate-request-domestic.json": [uspsEmulator, "POST", "/shipments/v3/options/search", "request"],
  "usps/rate-request-international.json": [uspsEmulator, "POST", "/shipments/v3/options/search", "request"],
  "usps/rate-response-domestic.json": [uspsEmulator, "POST", "/shipments/v3/options/search", 200],
  "usps/rate-response-international.json": [uspsEmulator, "POST", "/shipments/v3/options/search", 200],
  "usps/track-response-delivered.json": [uspsEmulator, "GET", "/tracking/v3/tracking/9205590000000100000018", 200],
  "usps/track-response-not-found.json": [uspsEmulator, "GET", "/tracking/v3/tracking/9205590000000100000018", 404],
  "usps/track-response-out-for-delivery.json": [
    uspsEmulator,
    "GET",
    "/tracking/v3/tracking/9205590000000100000018",
    200,
  ],
};

const FIXTURE_DIRS = {
  ups: "lib/carriers/ups/fixtures",
  fedex: "lib/carriers/fedex/fixtures",
  dhl_express: "lib/carriers/dhl_express/fixtures",
  usps: "lib/carriers/usps/fixtures",
};

describe("recorded fixtures against the carriers' published schemas", () => {
  it("every fixture of a networked carrier is listed here", () => {
    const found = Object.entries(FIXTURE_DIRS).flatMap(([carrier, dir]) =>
      readdirSync(dir)
        .filter((f) => f.endsWith(".json"))
        .map((f) => `${carrier}/${f}`),
    );
    expect(found.sort()).toEqual(Object.keys(FIXTURES).sort());
  });

  it.each(Object.entries(FIXTURES))("%s", (name, [carrier, method, path, what, mediaType]) => {
    const [dir, file] = name.split("/") as [keyof typeof FIXTURE_DIRS, string];
    const body = JSON.parse(readFileSync(join(FIXTURE_DIRS[dir], file), "utf8")) as unknown;
    const contract = contractOf(carrier);
    const op = contract.operation(method, path)!;
    expect(op).not.toBeNull();
    const problems =
      what === "request"
        ? contract.checkRequest(op, {
            method,
            path,
            query: new URLSearchParams(),
            // What the adapters send with every call (the headers are checked in the emulated journeys).
            headers: {
              "content-type": "application/json",
              authorization: "Bearer t",
              transid: "t",
              transactionsrc: "t",
              "x-version": "3.1.0",
              "x-payment-authorization-token": "t",
            },
            contentType: "application/json",
            body,
          })
        : contract.checkResponse(op, what, body, mediaType);
    expect(problems).toEqual([]);
  });
});

describe("the emulator refuses what the carrier's schema refuses", () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await startEmulator([upsEmulator, fedexEmulator, uspsEmulator]);
  });
  afterAll(() => emulator.close());

  async function token(carrier: "ups" | "fedex"): Promise<string> {
    const res =
      carrier === "ups"
        ? await fetch(`${emulator.url}/ups/security/v1/oauth/token`, {
            method: "POST",
            headers: {
              authorization: `Basic ${Buffer.from("id:secret").toString("base64")}`,
              "content-type": "application/x-www-form-urlencoded",
            },
            body: "grant_type=client_credentials",
          })
        : await fetch(`${emulator.url}/fedex/oauth/token`, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: "grant_type=client_credentials&client_id=id&client_secret=secret",
          });
    return ((await res.json()) as { access_token: string }).access_token;
  }

  const upsRate = (shipment: Record<string, unknown>) => ({
    RateRequest: {
      Request: { RequestOption: "Rate" },
      Shipment: {
        Shipper: { Name: "A", ShipperNumber: "A1B2C3", Address: { AddressLine: ["1 Way"], CountryCode: "US" } },
        ShipTo: { Name: "B", Address: { AddressLine: ["2 Way"], CountryCode: "US" } },
        Package: [
          {
            PackagingType: { Code: "02" },
            PackageWeight: { UnitOfMeasurement: { Code: "LBS", Description: "Pounds" }, Weight: "1" },
          },
        ],
        ...shipment,
      },
    },
  });

  async function upsCall(body: unknown, headers: Record<string, string> = { transId: "t1", transactionSrc: "test" }) {
    const res = await fetch(`${emulator.url}/ups/api/rating/v2409/Rate`, {
      method: "POST",
      headers: { authorization: `Bearer ${await token("ups")}`, "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
    return {
      status: res.status,
      body: (await res.json()) as { response: { errors: { code: string; message: string }[] } },
    };
  }

  it("UPS: a missing required field is UPS's 400, naming the field, and a violation", async () => {
    const { Request: _, ...withoutRequest } = upsRate({ Service: { Code: "03" } }).RateRequest;
    const res = await upsCall({ RateRequest: withoutRequest });
    expect(res.status).toBe(400);
    expect(res.body.response.errors).toEqual([
      { code: "120001", message: "Invalid request: RateRequest.Request: is required" },
    ]);
    const [violation, ...more] = emulator.takeViolations();
    expect(more).toEqual([]);
    expect(violation).toMatchObject({
      carrier: "ups",
      operation: "rate",
      kind: "request",
      spec: "ups/Rating.yaml#Rate",
    });
  });

  it("UPS: a value longer than the schema allows is refused", async () => {
    const res = await upsCall(upsRate({ Service: { Code: "03" }, ShipTo: { Name: "x".repeat(36), Address: {} } }));
    expect(res.status).toBe(400);
    const messages = res.body.response.errors.map((e) => e.message);
    expect(messages).toContain(
      "Invalid request: RateRequest.Shipment.ShipTo.Name: must NOT have more than 35 characters",
    );
    expect(messages).toContain("Invalid request: RateRequest.Shipment.ShipTo.Address.AddressLine: is required");
    expect(emulator.takeViolations()).toHaveLength(1);
  });

  it("UPS: a tracking call without the headers Tracking.yaml requires is refused", async () => {
    const res = await fetch(`${emulator.url}/ups/api/track/v1/details/1Z12345E0205271688`, {
      headers: { authorization: `Bearer ${await token("ups")}` },
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { response: { errors: { message: string }[] } };
    expect(body.response.errors.map((e) => e.message)).toEqual([
      "Invalid request: header transId: is required",
      "Invalid request: header transactionSrc: is required",
    ]);
    expect(emulator.takeViolations()).toMatchObject([{ carrier: "ups", operation: "track", kind: "request" }]);
  });

  it("UPS: the same request, whole, passes", async () => {
    const res = await upsCall(upsRate({ Service: { Code: "03" } }));
    expect(res.status).toBe(200);
    expect(emulator.takeViolations()).toEqual([]);
  });

  it("FedEx: an unknown enum value is FedEx's INVALID.INPUT.EXCEPTION naming the field", async () => {
    const fixture = JSON.parse(readFileSync("lib/carriers/fedex/fixtures/rate-request-domestic.json", "utf8")) as {
      requestedShipment: Record<string, unknown>;
    };
    fixture.requestedShipment.pickupType = "WHENEVER";
    const res = await fetch(`${emulator.url}/fedex/rate/v1/rates/quotes`, {
      method: "POST",
      headers: { authorization: `Bearer ${await token("fedex")}`, "content-type": "application/json" },
      body: JSON.stringify(fixture),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: { code: string; parameterList: { value: string }[] }[] };
    expect(body.errors).toContainEqual(
      expect.objectContaining({
        code: "INVALID.INPUT.EXCEPTION",
        parameterList: [{ key: "field", value: "requestedShipment.pickupType" }],
      }),
    );
    expect(emulator.takeViolations()).toMatchObject([{ carrier: "fedex", operation: "rate", kind: "request" }]);
  });

  it("DHL's multipleOf 0.001 is read in decimals: 0.043 kg is a weight DHL takes, 0.0431 kg is not", () => {
    const contract = contractOf(dhlExpressEmulator);
    const op = contract.operation("POST", "/mydhlapi/rates")!;
    const body = JSON.parse(readFileSync("lib/carriers/dhl_express/fixtures/rate-request-international.json", "utf8"));
    const check = (weight: number) =>
      contract.checkRequest(op, {
        method: "POST",
        path: "/mydhlapi/rates",
        query: new URLSearchParams(),
        headers: { "x-version": "3.1.0" },
        contentType: "application/json",
        body: { ...body, packages: [{ weight }] },
      });
    expect(check(0.043)).toEqual([]);
    expect(check(2.268)).toEqual([]);
    expect(check(0.0431)).toEqual([{ field: "packages[0].weight", message: "must be multiple of 0.001" }]);
  });

  it("USPS: a label without its package description is USPS's 400 naming the field, and a violation", async () => {
    const auth = await fetch(`${emulator.url}/usps/oauth2/v3/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: "c", client_secret: "s" }),
    });
    const { access_token } = (await auth.json()) as { access_token: string };
    const fixture = JSON.parse(readFileSync("lib/carriers/usps/fixtures/label-request-domestic.json", "utf8")) as {
      packageDescription?: unknown;
    };
    delete fixture.packageDescription;
    const res = await fetch(`${emulator.url}/usps/labels/v3/label`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${access_token}`,
        "content-type": "application/json",
        "x-payment-authorization-token": "p",
      },
      body: JSON.stringify(fixture),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { errors: { detail: string; source?: { parameter: string } }[] } };
    expect(body.error.errors).toEqual([
      expect.objectContaining({
        code: "EMU-400",
        detail: "Invalid request: packageDescription: is required",
        source: { parameter: "packageDescription" },
      }),
    ]);
    expect(emulator.takeViolations()).toMatchObject([
      { carrier: "usps", operation: "ship", kind: "request", spec: "usps/domestic-labels.yaml#post-label" },
    ]);
  });

  it("USPS: a label answer is held to the schema of the media type it was asked as", () => {
    const contract = contractOf(uspsEmulator);
    const op = contract.operation("POST", "/labels/v3/label")!;
    const vendor = JSON.parse(readFileSync("lib/carriers/usps/fixtures/label-response-domestic.json", "utf8"));
    expect(contract.checkResponse(op, 200, vendor, VENDOR_JSON)).toEqual([]);
    // The same body as application/json is the multipart answer's form, whose metadata is nested: refused.
    expect(contract.checkResponse(op, 200, vendor, "application/json")).toContainEqual({
      field: "trackingNumber",
      message: "is not a field the carrier defines",
    });
  });

  it("an answer outside the schema is a violation too (the emulator is held to the carrier's answers)", () => {
    const contract = contractOf(upsEmulator);
    const op = contract.operation("POST", "/api/rating/v2409/Shop")!;
    expect(contract.checkResponse(op, 200, { RateResponse: { Response: {} } })).toEqual(
      expect.arrayContaining([{ field: "RateResponse.Response.ResponseStatus", message: "is required" }]),
    );
    expect(contract.checkResponse(op, 418, {})).toEqual([
      { field: "", message: "status 418 is not an answer the carrier defines" },
    ]);
  });
});

describe("errata", () => {
  it.each(
    [upsEmulator, fedexEmulator, uspsEmulator, dhlExpressEmulator].flatMap((c) =>
      c.contract!.files.flatMap((f) => errataOf(f).map((e) => [f, e.at, e] as const)),
    ),
  )("%s %s still differs from what the carrier's file says (else it is no longer needed)", (_, __, erratum) => {
    expect(specValue(erratum.file, erratum.at)).not.toEqual(erratum.value);
  });
});

/**
 * Canada Post's recorded payloads against its XSDs (xml-contract.ts): each fixture is the element its operation takes
 * or answers, valid by the schema; and the emulator answers a request the schema refuses with Canada Post's
 * `<messages>` (code Server).
 */
const CANADAPOST_FIXTURES: Record<string, [string, string, "request" | number]> = {
  "rate-request.xml": ["POST", "/rs/ship/price", "request"],
  "rate-response.xml": ["POST", "/rs/ship/price", 200],
  "ship-request-contract.xml": ["POST", "/rs/2004381/2004381/shipment", "request"],
  "ship-response-contract.xml": ["POST", "/rs/2004381/2004381/shipment", 200],
  "ship-request-noncontract.xml": ["POST", "/rs/2004381/ncshipment", "request"],
  "ship-response-noncontract.xml": ["POST", "/rs/2004381/ncshipment", 200],
  "shipment-details-transmitted.xml": ["GET", "/rs/2004381/2004381/shipment/340531309186521749/details", 200],
  "refund-response.xml": ["POST", "/rs/2004381/2004381/shipment/340531309186521749/refund", 200],
  "track-response-delivered.xml": ["GET", "/vis/track/pin/1371134583769923/detail", 200],
  "track-response-not-found.xml": ["GET", "/vis/track/pin/1371134583769923/detail", 404],
  "error-auth.xml": ["POST", "/rs/ship/price", 401],
  "error-throttled.xml": ["GET", "/vis/track/pin/1371134583769923/detail", 503],
  "error-ship.xml": ["POST", "/rs/2004381/2004381/shipment", 400],
};
const CANADAPOST_DIR = "lib/carriers/canadapost/fixtures";

describe("Canada Post's recorded fixtures against its XSDs", () => {
  const contract = canadapostEmulator.contract!.load!();

  it("every Canada Post fixture is listed here", () => {
    const found = readdirSync(CANADAPOST_DIR).filter((f) => f.endsWith(".xml"));
    expect(found.sort()).toEqual(Object.keys(CANADAPOST_FIXTURES).sort());
  });

  it.each(Object.entries(CANADAPOST_FIXTURES))("%s", async (name, [method, path, what]) => {
    const raw = readFileSync(join(CANADAPOST_DIR, name), "utf8");
    const op = contract.operation(method, path)!;
    expect(op).not.toBeNull();
    const media = method === "GET" && path.startsWith("/vis") ? "application/vnd.cpc.track-v2+xml" : "";
    const type = path.includes("ncshipment")
      ? "application/vnd.cpc.ncshipment-v4+xml"
      : path.includes("shipment")
        ? "application/vnd.cpc.shipment-v8+xml"
        : media || "application/vnd.cpc.ship.rate-v4+xml";
    const problems =
      what === "request"
        ? await contract.checkRequest(op, {
            method,
            path,
            query: new URLSearchParams(),
            headers: { accept: type, "content-type": type },
            contentType: type,
            body: undefined,
            raw,
          })
        : await contract.checkResponse(op, what, raw);
    expect(problems).toEqual([]);
  });

  it("a fixture of another operation, or broken, is refused", async () => {
    const op = contract.operation("POST", "/rs/ship/price")!;
    const wrong = await contract.checkResponse(
      op,
      200,
      readFileSync(join(CANADAPOST_DIR, "refund-response.xml"), "utf8"),
    );
    expect(wrong[0]!.message).toMatch(/not the element/);
    const broken = readFileSync(join(CANADAPOST_DIR, "rate-response.xml"), "utf8").replace("<due>13.98</due>", "");
    expect((await contract.checkResponse(op, 200, broken))[0]!.message).toMatch(/due/);
  });
});

describe("the emulator refuses what Canada Post's schema refuses", () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await startEmulator([canadapostEmulator]);
  });
  afterAll(() => emulator.close());

  it("a mailing scenario over the schema's weight limit and a wrong media type: <messages>, violations kept", async () => {
    const body = readFileSync(join(CANADAPOST_DIR, "rate-request.xml"), "utf8").replace(
      "<weight>2.5</weight>",
      "<weight>120</weight>",
    );
    const res = await fetch(`${emulator.url}/canadapost/rs/ship/price`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from("user:pass").toString("base64")}`,
        accept: "*/*",
        "content-type": "application/xml",
        "accept-language": "en-CA",
      },
      body,
    });
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text).toContain("<code>Server</code>");
    const [violation] = emulator.takeViolations();
    expect(violation).toMatchObject({ carrier: "canadapost", operation: "rate", kind: "request" });
    expect(violation!.problems.map((p) => p.field)).toEqual(["header accept", "header content-type", "weight"]);
  });
});
