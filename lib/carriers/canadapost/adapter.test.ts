import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { canadapostAdapter } from "@/lib/carriers/canadapost/adapter";
import { errorFromResponse } from "@/lib/carriers/canadapost/errors";
import { buildRateRequest, parseRateResponse } from "@/lib/carriers/canadapost/rating";
import { buildShipRequest, parseShipResponse } from "@/lib/carriers/canadapost/shipping";
import { parseTrackResponse, trackFailure } from "@/lib/carriers/canadapost/tracking";
import { parseRefund, readDetails } from "@/lib/carriers/canadapost/void";
import type { CarrierResponse } from "@/lib/carriers/http/client";
import { CarrierError } from "@/lib/carriers/types";
import {
  canadapostInternationalShipRequest,
  canadapostRateRequest,
  canadapostShipRequest,
  withCanadapostContext,
} from "@/test/canadapost-context";
import { canadapostEmulator } from "@/test/emulator/canadapost";

/**
 * The Canada Post wire mappings against recorded payloads (fixtures/, each validated against Canada Post's XSDs in
 * test/emulator/contract.test.ts): what the builders send, and what the parsers read from Canada Post's answers,
 * errors and not-found included.
 */

const DIR = join(import.meta.dirname, "fixtures");
const fixture = (name: string) => readFileSync(join(DIR, name), "utf8");

/** A request fixture is what the builder sends; `CANADAPOST_WRITE_FIXTURES=1` records it anew. */
function expectFixture(name: string, body: string) {
  const pretty = body.replace(/></g, ">\n<") + "\n";
  if (process.env.CANADAPOST_WRITE_FIXTURES === "1" || !existsSync(join(DIR, name))) {
    writeFileSync(join(DIR, name), pretty);
  }
  expect(pretty).toBe(fixture(name));
}

const response = (status: number, text: string): CarrierResponse => ({
  status,
  headers: new Headers(),
  body: new TextEncoder().encode(text),
  text: () => text,
  json: () => JSON.parse(text) as never,
});

const OPTS = { customerNumber: "2004381", contractId: "42708517", shipDate: "2024-03-04" };

describe("Canada Post requests", () => {
  it("rates one parcel from a Canadian postal code, in kg and cm", () => {
    const { body } = buildRateRequest(canadapostRateRequest({ options: { signature_confirmation: true } }), OPTS);
    expectFixture("rate-request.xml", body);
  });

  it("prices a US parcel by ZIP code and another country by its code", () => {
    const us = canadapostRateRequest();
    us.recipient = { ...us.recipient, country_code: "US", postal_code: "10118" };
    expect(buildRateRequest(us, OPTS).body).toContain("<united-states><zip-code>10118</zip-code></united-states>");
    const fr = canadapostRateRequest();
    fr.recipient = { ...fr.recipient, country_code: "FR", postal_code: "75001" };
    expect(buildRateRequest(fr, OPTS).body).toContain("<country-code>FR</country-code>");
  });

  it("refuses a shipper outside Canada and several parcels before calling", () => {
    const us = canadapostRateRequest();
    us.shipper = { ...us.shipper, country_code: "US", postal_code: "10118" };
    expect(() => buildRateRequest(us, OPTS)).toThrow(CarrierError);
    const two = canadapostRateRequest();
    two.parcels = [two.parcels[0]!, two.parcels[0]!];
    expect(() => buildRateRequest(two, OPTS)).toThrow(/one parcel/);
  });

  it("builds a grouped contract shipment", () => {
    const built = buildShipRequest(canadapostShipRequest({ options: { insurance: 250 } }), {
      ...OPTS,
      transmit: false,
      labelSize: "4x6",
    });
    expect(built.messages).toEqual([]);
    expectFixture("ship-request-contract.xml", built.body);
  });

  it("builds a non-contract shipment with customs, names cut to Canada Post's limits", () => {
    const req = canadapostInternationalShipRequest();
    req.recipient = { ...req.recipient, company_name: "A company name far longer than forty-four characters" };
    const built = buildShipRequest(req, { ...OPTS, contractId: null, transmit: false, labelSize: "4x6" });
    expect(built.messages).toEqual([
      expect.objectContaining({
        code: "CANADAPOST_FIELD_TRUNCATED",
        details: { field: "destination.company_name", limit: 44 },
      }),
    ]);
    expectFixture("ship-request-noncontract.xml", built.body);
  });

  it("writes any HS code our API takes (6 to 10 digits) as shipment.xsd's hs-tariff-code pattern allows", async () => {
    // shipment.xsd SkuType `hs-tariff-code`: \d{4}(\.\d{2}(\.\d{2}(\.\d{2})?)?)? — pairs of digits after the heading;
    // lib/schemas/customs.ts takes 6 to 10 digits, so 7 and 9 digit codes reach the builder.
    const contract = canadapostEmulator.contract!.load!();
    const path = "/rs/2004381/2004381/shipment";
    const op = contract.operation("POST", path)!;
    for (const hs of ["610910", "6109100", "61091000", "610910001", "6109100012"]) {
      const req = canadapostInternationalShipRequest();
      req.customs = { ...req.customs!, commodities: req.customs!.commodities.map((c) => ({ ...c, hs_code: hs })) };
      const { body } = buildShipRequest(req, { ...OPTS, transmit: false, labelSize: "4x6" });
      const type = "application/vnd.cpc.shipment-v8+xml";
      const problems = await contract.checkRequest(op, {
        method: "POST",
        path,
        query: new URLSearchParams(),
        headers: { accept: type, "content-type": type },
        contentType: type,
        body: undefined,
        raw: body,
      });
      expect([hs, problems]).toEqual([hs, []]);
    }
  });

  it("sends options as Canada Post's codes and says which it cannot honour", () => {
    const built = buildRateRequest(
      canadapostRateRequest({
        options: {
          signature_confirmation: "adult",
          insurance: { amount: 300, currency: "CAD" },
          saturday_delivery: true,
          fedex_one_rate: true,
          gift_wrap: "yes",
        },
      }),
      OPTS,
    );
    expect(built.body).toContain(
      "<options><option><option-code>PA18</option-code></option><option><option-code>COV</option-code><option-amount>300</option-amount></option></options>",
    );
    expect(built.messages.map((m) => [m.code, m.details?.field])).toEqual([
      ["not_supported", "options.saturday_delivery"],
      ["not_supported", "options.fedex_one_rate"],
      ["not_supported", "options.gift_wrap"],
    ]);
    const usd = buildRateRequest(
      canadapostRateRequest({ options: { insurance: { amount: 300, currency: "USD" } } }),
      OPTS,
    );
    expect(usd.body).not.toContain("COV");
    expect(usd.messages[0]).toMatchObject({ code: "not_supported", details: { field: "options.insurance" } });
  });

  it("prints on letter paper or as ZPL on a contract, and transmits at once when the connection says so", () => {
    const letter = buildShipRequest(canadapostShipRequest({ label_type: "ZPL" }), {
      ...OPTS,
      transmit: true,
      labelSize: "letter",
    });
    expect(letter.body).toContain("<output-format>8.5x11</output-format><encoding>ZPL</encoding>");
    expect(letter.body).toContain("<transmit-shipment>true</transmit-shipment>");
    expect(letter.body).not.toContain("<group-id>");
  });

  it("escapes what clients write, never concatenates it", () => {
    const req = canadapostShipRequest({ reference: "A&B <C>" });
    const { body } = buildShipRequest(req, { ...OPTS, transmit: false, labelSize: "4x6" });
    expect(body).toContain("<customer-ref-1>A&amp;B &lt;C&gt;</customer-ref-1>");
  });
});

describe("Canada Post answers", () => {
  it("reads quotes: base, options and surcharges as extras, discounts, taxes; the parts add up", () => {
    const { quotes } = parseRateResponse(fixture("rate-response.xml"), []);
    expect(quotes[0]).toEqual({
      service: "DOM.EP",
      service_name: "Expedited Parcel",
      currency: "CAD",
      base_charge: 9.59,
      discount: 0.29,
      duties_and_taxes: 1.38,
      total_charge: 13.98,
      extra_charges: [
        { name: "Signature", amount: 2.25, currency: "CAD" },
        { name: "Fuel surcharge", amount: 1.05, currency: "CAD" },
      ],
      transit_days: 1,
      estimated_delivery: "2024-03-05",
    });
    for (const q of quotes) {
      const sum = q.base_charge + q.extra_charges.reduce((s, e) => s + e.amount, 0) - q.discount + q.duties_and_taxes;
      expect(Math.round(sum * 100) / 100).toBe(q.total_charge);
    }
  });

  it("reads a contract shipment: id, PIN, status, the label link and the charge", () => {
    const info = parseShipResponse(fixture("ship-response-contract.xml"), "DOM.EP");
    expect(info).toMatchObject({
      shipmentId: "340531309186521749",
      trackingPin: "1234567890123456",
      status: "created",
      label: {
        href: "https://ct.soa-gw.canadapost.ca/ers/artifact/6e93d53968881714/5686293/0",
        mediaType: "application/pdf",
      },
      charge: { total_charge: 11.7, base_charge: 9.59, discount: 0.29, duties_and_taxes: 1.35 },
    });
  });

  it("reads a non-contract shipment (no price in the answer)", () => {
    const info = parseShipResponse(fixture("ship-response-noncontract.xml"), "DOM.EP");
    expect(info).toMatchObject({ shipmentId: "406951321983787352", trackingPin: "123456789012", charge: null });
  });

  it("reads a transmitted shipment's details and a refund's service ticket", () => {
    expect(readDetails(response(200, fixture("shipment-details-transmitted.xml")))).toEqual({
      kind: "live",
      status: "transmitted",
    });
    expect(readDetails(response(404, fixture("track-response-not-found.xml")))).toEqual({ kind: "gone" });
    expect(parseRefund(response(200, fixture("refund-response.xml"))).data).toEqual({
      voided: true,
      refund: { status: "pending", reference: "0123456789" },
    });
  });

  it("reads tracking newest first; a signature event keeps the delivered status", () => {
    const { data } = parseTrackResponse(fixture("track-response-delivered.xml"), "1371134583769923");
    expect(data.status).toBe("delivered");
    expect(data.events.map((e) => [e.code, e.status])).toEqual([
      ["0020", "delivered"],
      ["1496", "delivered"],
      ["0174", "out_for_delivery"],
      ["0100", "picked_up"],
    ]);
    expect(data.events[1]).toMatchObject({ date: "2024-03-06", time: "13:51", location: "TORONTO, ON" });
    expect(data.events[1]!.occurred_at).toBe("2024-03-06T18:51:41.000Z");
    expect(data.estimated_delivery).toBeNull();
    expect(data.meta).toEqual({ service_name: "Expedited Parcels", signed_by: "R RECEIVER" });
  });

  it("maps <messages>: not found, refused credentials, the throttle, refusals in order", () => {
    const missing = trackFailure(response(404, fixture("track-response-not-found.xml")), "1234567890123456");
    expect(missing.code).toBe("tracking_not_found");
    expect(errorFromResponse(response(401, fixture("error-auth.xml"))).code).toBe("carrier_auth_failed");
    expect(errorFromResponse(response(503, fixture("error-throttled.xml"))).code).toBe("carrier_rate_limited");
    // A key that does not match the mailed-by customer number (AA003): the account's to fix, not "unavailable".
    const mismatch = fixture("error-auth.xml")
      .replace("E002", "AA003")
      .replace("AAA Authentication Failure", "Key mismatch");
    expect(errorFromResponse(response(400, mismatch)).code).toBe("carrier_auth_failed");
    const refused = errorFromResponse(response(400, fixture("error-ship.xml")));
    expect(refused.messages.map((m) => m.code)).toEqual(["9122", "1153"]);
    expect(errorFromResponse(response(502, "<html>bad gateway</html>")).code).toBe("carrier_unavailable");
    expect(errorFromResponse(response(418, "nonsense")).code).toBe("carrier_bad_response");
  });
});

describe("the label link", () => {
  it("is followed on Canada Post's own host only: a link elsewhere is not fetched, the label is cancelled", async () => {
    const seen: string[] = [];
    // Answers the recorded contract shipment, whose label link is on ct.soa-gw.canadapost.ca, not on this host.
    const server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      if (req.method === "POST") {
        res.writeHead(200, { "content-type": "application/vnd.cpc.shipment-v8+xml" });
        res.end(fixture("ship-response-contract.xml"));
      } else {
        res.writeHead(404, { "content-type": "application/xml" });
        res.end(fixture("track-response-not-found.xml"));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as { port: number };
      const error = await withCanadapostContext({ baseUrl: `http://127.0.0.1:${port}` }, (ctx) =>
        canadapostAdapter.ship(ctx, canadapostShipRequest()),
      ).then(
        () => null,
        (e: unknown) => e as CarrierError,
      );
      expect(error).toBeInstanceOf(CarrierError);
      expect(error!.code).toBe("carrier_bad_response");
      expect(error!.message).toMatch(/points outside its API/);
      expect(error!.messages[0]!.details).toMatchObject({ shipment_identifier: "340531309186521749" });
      // The shipment, then its details for the cancellation; never the foreign link.
      expect(seen).toEqual([
        "POST /rs/2004381/2004381/shipment",
        "GET /rs/2004381/2004381/shipment/340531309186521749/details",
      ]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("an invoice that cannot be fetched is a warning: the label sold stands", async () => {
    const pdf = new TextEncoder().encode("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");
    let origin = "";
    const server = createServer((req, res) => {
      if (req.method === "POST") {
        const answer = fixture("ship-response-contract.xml")
          .replaceAll("https://ct.soa-gw.canadapost.ca", origin)
          .replace(
            "</links>",
            `<link rel="commercialInvoice" href="${origin}/ers/artifact/6e93d53968881714/5686294/0" index="0" media-type="application/pdf"/></links>`,
          );
        res.writeHead(200, { "content-type": "application/vnd.cpc.shipment-v8+xml" });
        res.end(answer);
      } else if (req.url?.endsWith("/5686293/0")) {
        res.writeHead(200, { "content-type": "application/pdf" });
        res.end(pdf);
      } else {
        res.writeHead(404, { "content-type": "application/xml" });
        res.end(fixture("track-response-not-found.xml"));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      const { data, messages } = await withCanadapostContext({ baseUrl: origin }, (ctx) =>
        canadapostAdapter.ship(ctx, canadapostShipRequest()),
      );
      expect(data.label.bytes).toEqual(pdf);
      expect(data.documents).toEqual([]);
      expect(messages).toEqual([expect.objectContaining({ code: "CANADAPOST_DOCUMENT_UNREADABLE", level: "warning" })]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("a shipment answered without its label link is cancelled, not left sold", async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      if (req.method === "POST") {
        res.writeHead(200, { "content-type": "application/vnd.cpc.shipment-v8+xml" });
        res.end(fixture("ship-response-contract.xml").replace(/<link rel="label"[^>]*\/>/, ""));
      } else if (req.method === "GET") {
        res.writeHead(200, { "content-type": "application/vnd.cpc.shipment-v8+xml" });
        res.end(fixture("shipment-details-transmitted.xml").replace("transmitted", "created"));
      } else {
        res.writeHead(204);
        res.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as { port: number };
      const error = await withCanadapostContext({ baseUrl: `http://127.0.0.1:${port}` }, (ctx) =>
        canadapostAdapter.ship(ctx, canadapostShipRequest()),
      ).then(
        () => null,
        (e: unknown) => e as CarrierError,
      );
      expect(error!.code).toBe("carrier_bad_response");
      expect(error!.messages[0]!.details).toEqual({ shipment_identifier: "340531309186521749", voided: true });
      expect(seen.at(-1)).toBe("DELETE /rs/2004381/2004381/shipment/340531309186521749");
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
