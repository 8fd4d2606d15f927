import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { canadapostAdapter } from "@/lib/carriers/canadapost/adapter";
import { CarrierError, type AdapterContext } from "@/lib/carriers/types";
import { isPdf, isZpl } from "@/lib/labels/check";
import { atDeadline, fakeTimeouts, pastRetryPauses } from "@/test/clock";
import { startCarrierEmulator } from "@/test/emulator";
import type { Emulator, Operation } from "@/test/emulator/server";
import {
  CANADAPOST_CONTRACT,
  canadapostInternationalShipRequest,
  canadapostRateRequest,
  canadapostShipRequest,
  withCanadapostContext,
  type CanadapostContextOptions,
} from "@/test/canadapost-context";

/**
 * The Canada Post adapter against the carrier emulator's Canada Post: real HTTP, XML validated against Canada
 * Post's XSDs both ways, labels fetched from their links; the emulator's switches for every way Canada Post fails.
 */

let emulator: Emulator;
let skewMs = 0;
const clock = () => new Date(Date.now() + skewMs);

beforeAll(async () => {
  emulator = await startCarrierEmulator({ now: clock });
});
afterEach(() => {
  vi.useRealTimers();
  emulator.reset();
  emulator.assertContractKept();
  skewMs = 0;
});
afterAll(() => emulator.close());

function run<T>(op: (ctx: AdapterContext) => Promise<T>, opts: Partial<CanadapostContextOptions> = {}) {
  return withCanadapostContext({ baseUrl: `${emulator.url}/canadapost`, now: clock, ...opts }, op);
}
const NON_CONTRACT = { config: { refund_email: "refunds@acme.ca" } };

const calls = (operation: Operation) =>
  emulator.calls.filter((c) => c.carrier === "canadapost" && c.operation === operation);

async function failure(promise: Promise<unknown>): Promise<CarrierError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CarrierError);
  return error as CarrierError;
}

describe("Canada Post against the emulator", () => {
  it("rates every service on the route with the contract, in its vendor media type", async () => {
    const { data, messages } = await run((ctx) => canadapostAdapter.rate(ctx, canadapostRateRequest()));
    expect(data.map((q) => q.service)).toEqual(["DOM.RP", "DOM.EP", "DOM.XP", "DOM.PC"]);
    const ep = data[1]!;
    expect(ep).toMatchObject({ service_name: "Expedited Parcel", currency: "CAD", transit_days: 4 });
    expect(ep.extra_charges).toEqual([{ name: "Fuel surcharge", amount: expect.any(Number), currency: "CAD" }]);
    expect(ep.estimated_delivery).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const sum = ep.base_charge + ep.extra_charges.reduce((s, e) => s + e.amount, 0) - ep.discount;
    expect(Math.round((sum + ep.duties_and_taxes) * 100) / 100).toBe(ep.total_charge);
    expect(messages).toEqual([]);
    const [call] = calls("rate");
    expect(call!.path).toBe("/rs/ship/price");
    expect(call!.headers["content-type"]).toBe("application/vnd.cpc.ship.rate-v4+xml");
    expect(call!.headers.accept).toBe("application/vnd.cpc.ship.rate-v4+xml");
    expect(call!.body).toContain("<contract-id>42708517</contract-id>");
    expect(call!.body).toContain("<origin-postal-code>K1A0B1</origin-postal-code>");
    expect(call!.body).toContain("<weight>2.5</weight>");
  });

  it("rates the asked-for services only, and names one it did not quote", async () => {
    const { data, messages } = await run((ctx) =>
      canadapostAdapter.rate(ctx, canadapostRateRequest({ services: ["DOM.XP", "USA.EP"] })),
    );
    expect(data.map((q) => q.service)).toEqual(["DOM.XP"]);
    expect(messages).toEqual([expect.objectContaining({ code: "CANADAPOST_SERVICE_NOT_OFFERED", level: "warning" })]);
  });

  it("buys a contract shipment: the label is fetched from its link as binary PDF", async () => {
    const { data } = await run((ctx) => canadapostAdapter.ship(ctx, canadapostShipRequest()));
    expect(data.tracking_number).toMatch(/^\d{16}$/);
    expect(data.shipment_identifier).toMatch(/^\d{18}$/);
    expect(data.label.type).toBe("PDF");
    expect(isPdf(data.label.bytes)).toBe(true);
    expect(data.charge).toMatchObject({ service: "DOM.EP", currency: "CAD" });
    expect(data.meta).toMatchObject({ shipment_status: "created", contract: true });
    const [ship] = calls("ship");
    expect(ship!.path).toBe("/rs/2004381/2004381/shipment");
    // Grouped for the end-of-day transmit (not transmitted), with both references.
    expect(ship!.body).toMatch(/<group-id>\d{8}<\/group-id>/);
    expect(ship!.body).toContain("<customer-ref-1>ORDER-1001</customer-ref-1>");
    expect(ship!.body).toContain("<customer-ref-2>0123456789abcdef0123456789abcdef</customer-ref-2>");
    // The label link was followed, with the media type it named.
    const [label] = calls("label");
    expect(label!.method).toBe("GET");
    expect(label!.path).toMatch(/^\/rs\/artifact\/emulatorkey\/\d+\/0$/);
    expect(data.documents).toEqual([]);
    expect(label!.headers.accept).toBe("application/pdf");
  });

  it("buys a ZPL label on a contract, on 4×6 stock", async () => {
    const { data } = await run((ctx) => canadapostAdapter.ship(ctx, canadapostShipRequest({ label_type: "ZPL" })));
    expect(isZpl(new TextDecoder().decode(data.label.bytes))).toBe(true);
    expect(calls("ship")[0]!.body).toContain("<output-format>4x6</output-format><encoding>ZPL</encoding>");
  });

  it("buys a non-contract shipment without a contract; ZPL is refused before buying", async () => {
    const { data } = await run((ctx) => canadapostAdapter.ship(ctx, canadapostShipRequest()), NON_CONTRACT);
    expect(isPdf(data.label.bytes)).toBe(true);
    expect(data.meta).toMatchObject({ contract: false });
    expect(calls("ship")[0]!.path).toBe("/rs/2004381/ncshipment");
    const zpl = await failure(
      run((ctx) => canadapostAdapter.ship(ctx, canadapostShipRequest({ label_type: "ZPL" })), NON_CONTRACT),
    );
    expect(zpl.code).toBe("not_supported");
    expect(calls("ship")).toHaveLength(1);
  });

  it("maps customs to Canada Post's international fields", async () => {
    const { data } = await run((ctx) => canadapostAdapter.ship(ctx, canadapostInternationalShipRequest()));
    expect(data.tracking_number).toBeTruthy();
    const body = calls("ship")[0]!.body;
    expect(body).toContain("<reason-for-export>SOG</reason-for-export>");
    expect(body).toContain("<hs-tariff-code>1702.20</hs-tariff-code>");
    expect(body).toContain("<option-code>RTS</option-code>");
    expect(body).toContain("<invoice-number>INV-42</invoice-number>");
    // Canada Post's commercial invoice, fetched from its own link beside the label.
    expect(data.documents).toEqual([
      { type: "commercial_invoice", format: "PDF", bytes: expect.any(Uint8Array), name: "Commercial invoice" },
    ]);
    expect(isPdf(data.documents[0]!.bytes)).toBe(true);
    expect(calls("label")).toHaveLength(2);
  });

  it("refuses customs in another currency without the rate from CAD, before buying", async () => {
    const req = canadapostInternationalShipRequest();
    req.customs!.commodities[0]!.value_currency = "GBP";
    const error = await failure(run((ctx) => canadapostAdapter.ship(ctx, req)));
    expect(error.messages[0]).toMatchObject({
      code: "CANADAPOST_FIELD_REQUIRED",
      details: { field: "customs.options.conversion_from_cad" },
    });
    expect(calls("ship")).toHaveLength(0);
  });

  it("voids a contract shipment before transmit (DELETE, no refund), and again as already voided", async () => {
    const { data } = await run((ctx) => canadapostAdapter.ship(ctx, canadapostShipRequest()));
    const req = { tracking_number: data.tracking_number, shipment_identifier: data.shipment_identifier };
    const voided = await run((ctx) => canadapostAdapter.void(ctx, req));
    expect(voided.data).toEqual({ voided: true, refund: null });
    expect(calls("void").map((c) => c.method)).toEqual(["GET", "DELETE"]);
    const again = await run((ctx) => canadapostAdapter.void(ctx, req));
    expect(again.data).toEqual({ voided: true, refund: null });
    expect(again.messages).toEqual([expect.objectContaining({ code: "CANADAPOST_ALREADY_VOIDED", level: "info" })]);
  });

  it("asks for a refund of a transmitted contract shipment, and reads it back on a second cancellation", async () => {
    const config = { ...CANADAPOST_CONTRACT, transmit_shipment: true };
    const { data } = await run((ctx) => canadapostAdapter.ship(ctx, canadapostShipRequest()), { config });
    expect(calls("ship")[0]!.body).toContain("<transmit-shipment>true</transmit-shipment>");
    const req = { tracking_number: data.tracking_number, shipment_identifier: data.shipment_identifier };
    const first = await run((ctx) => canadapostAdapter.void(ctx, req), { config });
    expect(first.data).toEqual({
      voided: true,
      refund: { status: "pending", reference: expect.stringMatching(/^\d+$/) },
    });
    expect(calls("void").map((c) => `${c.method} ${c.path.split("/").pop()}`)).toEqual(["GET details", "POST refund"]);
    const second = await run((ctx) => canadapostAdapter.void(ctx, req), { config });
    expect(second.data.refund).toEqual(first.data.refund);
    expect(second.messages).toEqual([expect.objectContaining({ code: "CANADAPOST_REFUND_REQUESTED", level: "info" })]);
  });

  it("cancels a non-contract shipment by a refund request; without refund_email it says which setting", async () => {
    const { data } = await run((ctx) => canadapostAdapter.ship(ctx, canadapostShipRequest()), NON_CONTRACT);
    const req = { tracking_number: data.tracking_number, shipment_identifier: data.shipment_identifier };
    const missing = await failure(run((ctx) => canadapostAdapter.void(ctx, req), { config: {} }));
    expect(missing.messages[0]).toMatchObject({
      code: "CANADAPOST_FIELD_REQUIRED",
      details: { field: "config.refund_email" },
    });
    const voided = await run((ctx) => canadapostAdapter.void(ctx, req), NON_CONTRACT);
    expect(voided.data.refund).toMatchObject({ status: "pending" });
    expect(calls("void").at(-1)!.path).toBe(`/rs/2004381/ncshipment/${data.shipment_identifier}/refund`);
  });

  it("tracks a PIN as it moves, with zero-padded event identifiers normalized", async () => {
    const { data } = await run((ctx) => canadapostAdapter.ship(ctx, canadapostShipRequest()));
    skewMs = 5 * 3_600_000;
    const moving = await run((ctx) => canadapostAdapter.track(ctx, data.tracking_number));
    expect(moving.data.status).toBe("picked_up");
    expect(moving.data.events.map((e) => e.code)).toEqual(["0100", "3000"]);
    expect(moving.data.events.map((e) => e.status)).toEqual(["picked_up", "pending"]);
    expect(moving.data.estimated_delivery).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    skewMs = 10 * 24 * 3_600_000;
    const done = await run((ctx) => canadapostAdapter.track(ctx, data.tracking_number));
    expect(done.data.status).toBe("delivered");
    expect(done.data.events[1]).toMatchObject({ code: "0174", status: "out_for_delivery" });
    expect(done.data.estimated_delivery).toBeNull();
    expect(done.data.meta).toMatchObject({ service_name: "Expedited Parcel", signed_by: "R RECEIVER" });
    expect(calls("track")[0]!.headers.accept).toBe("application/vnd.cpc.track-v2+xml");
  });

  it("answers an unknown PIN (004 No Pin History) and a malformed one as tracking_not_found", async () => {
    const unknown = await failure(run((ctx) => canadapostAdapter.track(ctx, "1234567890123456")));
    expect(unknown.code).toBe("tracking_not_found");
    expect(unknown.messages[0]!.details).toMatchObject({ carrier_code: "004" });
    const malformed = await failure(run((ctx) => canadapostAdapter.track(ctx, "nope")));
    expect(malformed.code).toBe("tracking_not_found");
    expect(calls("track")).toHaveLength(1);
  });

  it("passes Canada Post's own refusals through in <messages>", async () => {
    const heavy = canadapostRateRequest({ parcels: [{ ...canadapostRateRequest().parcels[0]!, weight: 45 }] });
    const error = await failure(run((ctx) => canadapostAdapter.rate(ctx, heavy)));
    expect(error.messages[0]).toMatchObject({ code: "9111", message: expect.stringContaining("30 kg") });
  });
});

describe("Canada Post faults", () => {
  it("refused credentials (E002) are carrier_auth_failed", async () => {
    const error = await failure(
      run((ctx) => canadapostAdapter.rate(ctx, canadapostRateRequest()), {
        credentials: { api_username: "invalid-user", api_password: "x", customer_number: "2004381" },
      }),
    );
    expect(error.code).toBe("carrier_auth_failed");
    expect(error.messages[0]!.details).toMatchObject({ status: 401, carrier_code: "E002" });
  });

  it("a 5xx after retries is carrier_unavailable", async () => {
    emulator.set("canadapost", { fault: { kind: "status", status: 503 } });
    fakeTimeouts();
    const error = await failure(pastRetryPauses(run((ctx) => canadapostAdapter.rate(ctx, canadapostRateRequest()))));
    expect(error.code).toBe("carrier_unavailable");
    expect(calls("rate").length).toBeGreaterThan(1);
  });

  it("429 beyond what the deadline allows is carrier_rate_limited", async () => {
    emulator.set("canadapost", { fault: { kind: "rate_limited", retry_after_s: 120 } });
    const limited = await failure(run((ctx) => canadapostAdapter.track(ctx, "1234567890123456")));
    expect(limited.code).toBe("carrier_rate_limited");
  });

  it("the 21st tracking call of a minute is refused by the SLM Monitor: carrier_rate_limited", async () => {
    for (let i = 0; i < 20; i++) {
      const error = await failure(run((ctx) => canadapostAdapter.track(ctx, "1234567890123456")));
      expect(error.code).toBe("tracking_not_found");
    }
    const limited = await failure(run((ctx) => canadapostAdapter.track(ctx, "1234567890123456")));
    expect(limited.code).toBe("carrier_rate_limited");
    expect(limited.messages[0]!.details).toMatchObject({ carrier_code: "Server" });
    // A minute later the key's window has room again.
    skewMs = 61_000;
    expect((await failure(run((ctx) => canadapostAdapter.track(ctx, "1234567890123456")))).code).toBe(
      "tracking_not_found",
    );
  });

  it("a body that is not XML is carrier_bad_response", async () => {
    emulator.set("canadapost", { fault: { kind: "malformed" } });
    const error = await failure(run((ctx) => canadapostAdapter.rate(ctx, canadapostRateRequest())));
    expect(error.code).toBe("carrier_bad_response");
  });

  it("no answer is carrier_timeout", async () => {
    emulator.set("canadapost", { fault: { kind: "hang" } });
    fakeTimeouts();
    const error = await failure(
      atDeadline(
        run((ctx) => canadapostAdapter.rate(ctx, canadapostRateRequest()), { deadlineMs: 1000 }),
        () => calls("rate").length > 0,
        1000,
      ),
    );
    expect(error.code).toBe("carrier_timeout");
  });

  it("a label that cannot be fetched after the sale is cancelled and reported", async () => {
    emulator.set("canadapost", { fault: { kind: "status", status: 404 }, fault_operations: ["label"] });
    const error = await failure(run((ctx) => canadapostAdapter.ship(ctx, canadapostShipRequest())));
    expect(error.code).toBe("carrier_bad_response");
    expect(error.messages[0]!.details).toMatchObject({ voided: true });
    expect(calls("void").map((c) => c.method)).toEqual(["GET", "DELETE"]);
  });
});

describe("Canada Post's rules in prose", () => {
  it("a Canadian destination without its postal code is Canada Post's refusal, passed through", async () => {
    const req = canadapostShipRequest();
    req.recipient = { ...req.recipient, postal_code: "" };
    const error = await failure(run((ctx) => canadapostAdapter.ship(ctx, req)));
    expect(error.messages[0]).toMatchObject({ code: "1153", level: "error" });
  });

  it("a label to the US carries the state and ZIP code, and customs", async () => {
    const req = canadapostInternationalShipRequest({ service: "USA.EP" });
    req.recipient = {
      ...req.recipient,
      city: "New York",
      state_code: "NY",
      postal_code: "10118",
      country_code: "US",
    };
    const { data } = await run((ctx) => canadapostAdapter.ship(ctx, req));
    expect(data.tracking_number).toMatch(/^\d{16}$/);
    expect(calls("ship")[0]!.body).toContain("<prov-state>NY</prov-state>");
  });
});
