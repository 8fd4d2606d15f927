import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { PDFDocument } from "pdf-lib";
import { TokenCache } from "@/lib/carriers/http/token-cache";
import { CarrierError, hasCode, type AdapterContext } from "@/lib/carriers/types";
import { uspsAdapter } from "@/lib/carriers/usps/adapter";
import { uspsCredentialsSchema } from "@/lib/carriers/usps/auth";
import { atDeadline, fakeTimeouts } from "@/test/clock";
import { startCarrierEmulator } from "@/test/emulator";
import type { Emulator, Operation } from "@/test/emulator/server";
import { isValidImpb, isValidS10 } from "@/test/emulator/usps";
import {
  USPS_CREDENTIALS,
  uspsInternationalRateRequest,
  uspsInternationalShipRequest,
  uspsRateRequest,
  uspsShipRequest,
  withUspsContext,
  type UspsContextOptions,
} from "@/test/usps-context";

/**
 * The USPS adapter against the carrier emulator's USPS: real HTTP, both tokens, real label files; every request and
 * answer held to USPS's own files (a violation fails the test).
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

function run<T>(op: (ctx: AdapterContext) => Promise<T>, opts: Partial<UspsContextOptions> = {}) {
  return withUspsContext({ baseUrl: `${emulator.url}/usps`, tokens, now: clock, ...opts }, op);
}

const calls = (operation: Operation) => emulator.calls.filter((c) => c.carrier === "usps" && c.operation === operation);

async function failure(promise: Promise<unknown>): Promise<CarrierError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CarrierError);
  return error as CarrierError;
}

const HOUR = 3600_000;
const DAY = 24 * HOUR;

describe("USPS against the emulator: rates", () => {
  it("prices every mail class for the route, cheapest rate option each, with the commitment's transit days", async () => {
    const { data } = await run((ctx) => uspsAdapter.rate(ctx, uspsRateRequest()));
    expect(data.map((q) => q.service).sort()).toEqual(
      [
        "BOUND_PRINTED_MATTER",
        "LIBRARY_MAIL",
        "MEDIA_MAIL",
        "PARCEL_SELECT",
        "PRIORITY_MAIL",
        "PRIORITY_MAIL_EXPRESS",
        "USPS_GROUND_ADVANTAGE",
      ].sort(),
    );
    const priority = data.find((q) => q.service === "PRIORITY_MAIL")!;
    expect(priority).toMatchObject({ service_name: "Priority Mail", currency: "USD", extra_charges: [] });
    expect(priority.transit_days).toBeGreaterThan(0);
    expect(priority.estimated_delivery).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // Machinable (no surcharge) was the cheaper of the two rate options.
    expect(priority.total_charge).toBe(priority.base_charge);
    const body = JSON.parse(calls("rate")[0]!.body);
    expect(body).toMatchObject({
      originZIPCode: "29440",
      destinationZIPCode: "73108",
      pricingOptions: [
        { priceType: "COMMERCIAL", paymentAccount: { accountType: "EPS", accountNumber: "1000012345" } },
      ],
      packageDescription: { weight: 4.1, length: 12, width: 8, height: 6, mailClass: "ALL_OUTBOUND" },
    });
  });

  it("asks for the connection's price type, and narrows to the services asked for", async () => {
    const retail = await run((ctx) => uspsAdapter.rate(ctx, uspsRateRequest({ services: ["priority_mail"] })), {
      config: { price_type: "RETAIL" },
    });
    const commercial = await run((ctx) => uspsAdapter.rate(ctx, uspsRateRequest({ services: ["PRIORITY_MAIL"] })));
    expect(retail.data.map((q) => q.service)).toEqual(["PRIORITY_MAIL"]);
    expect(retail.data[0]!.total_charge).toBeGreaterThan(commercial.data[0]!.total_charge);
  });

  it("prices international mail by country and postal code, without Global Express Guaranteed", async () => {
    const { data } = await run((ctx) => uspsAdapter.rate(ctx, uspsInternationalRateRequest()));
    expect(data.map((q) => q.service).sort()).toEqual(
      [
        "FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE",
        "PRIORITY_MAIL_EXPRESS_INTERNATIONAL",
        "PRIORITY_MAIL_INTERNATIONAL",
      ].sort(),
    );
    expect(JSON.parse(calls("rate")[0]!.body)).toMatchObject({
      destinationCountryCode: "GB",
      foreignPostalCode: "SW1A 2AA",
      requestDutiesTaxesFees: false,
    });
  });

  it("refuses an origin outside the US, and several parcels, before calling USPS", async () => {
    const abroad = uspsInternationalRateRequest();
    const error = await failure(
      run((ctx) => uspsAdapter.rate(ctx, { ...uspsRateRequest(), shipper: abroad.recipient })),
    );
    expect(error.code).toBe("not_supported");
    const two = uspsRateRequest();
    expect(
      (await failure(run((ctx) => uspsAdapter.rate(ctx, { ...two, parcels: [...two.parcels, ...two.parcels] })))).code,
    ).toBe("not_supported");
    expect(calls("rate")).toHaveLength(0);
  });
});

describe("USPS against the emulator: labels", () => {
  it("buys a domestic PDF label with its receipt, both tokens fetched once and reused", async () => {
    const { data } = await run((ctx) => uspsAdapter.ship(ctx, uspsShipRequest()));
    expect(isValidImpb(data.tracking_number)).toBe(true);
    expect(data.shipment_identifier).toBe(data.tracking_number);
    const pdf = await PDFDocument.load(data.label.bytes);
    expect(pdf.getPage(0).getSize()).toEqual({ width: 288, height: 432 });
    expect(data.documents).toEqual([
      expect.objectContaining({ type: "other", format: "PDF", name: "USPS postage receipt" }),
    ]);
    expect(data.charge).toMatchObject({ service: "PRIORITY_MAIL", currency: "USD" });
    expect(data.charge!.total_charge).toBeGreaterThan(0);

    await run((ctx) => uspsAdapter.ship(ctx, uspsShipRequest({ shipment_key: "shp_other" })));
    expect(calls("token")).toHaveLength(1);
    expect(calls("payment")).toHaveLength(1);
    const sent = calls("ship")[0]!;
    expect(sent.path).toBe("/labels/v3/label");
    expect(sent.headers.accept).toBe("application/vnd.usps.labels+json");
    expect(sent.headers["x-payment-authorization-token"]).toBeTruthy();
    const body = JSON.parse(sent.body);
    expect(body.imageInfo).toEqual({ imageType: "PDF", labelType: "4X6LABEL", receiptOption: "SEPARATE_PAGE" });
    expect(body.toAddress).toMatchObject({ firstName: "Lina", lastName: "Smith", ZIPCode: "73108", ZIPPlus4: "1234" });
    expect(sent.headers["x-idempotency-key"]).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(body.packageDescription).toMatchObject({
      mailClass: "PRIORITY_MAIL",
      rateIndicator: "SP",
      processingCategory: "MACHINABLE",
      customerReference: [{ referenceNumber: "ORDER-1001" }],
    });
    // Each call but the token's (USPS publishes no file for it) was held to its operation in USPS's files.
    for (const call of emulator.calls.filter((c) => c.operation !== "token"))
      expect(call.contractMs).toBeGreaterThan(0);
    const roles = JSON.parse(calls("payment")[0]!.body).roles;
    expect(roles.map((r: { roleName: string }) => r.roleName)).toEqual(["PAYER", "LABEL_OWNER"]);
    expect(roles[0]).toMatchObject({
      CRID: "56982563",
      MID: "900000001",
      manifestMID: "900000002",
      accountType: "EPS",
    });
  });

  it("buys a ZPL label, and the same shipment key sent twice answers the same label", async () => {
    const first = await run((ctx) => uspsAdapter.ship(ctx, uspsShipRequest({ label_type: "ZPL" })));
    expect(new TextDecoder().decode(first.data.label.bytes)).toMatch(/^\^XA/);
    expect(first.data.documents).toEqual([]);
    const again = await run((ctx) => uspsAdapter.ship(ctx, uspsShipRequest({ label_type: "ZPL" })));
    expect(again.data.tracking_number).toBe(first.data.tracking_number);
    // Another service for the same shipment is another request: a new label, not a refusal.
    const other = await run((ctx) =>
      uspsAdapter.ship(ctx, uspsShipRequest({ label_type: "ZPL", service: "MEDIA_MAIL" })),
    );
    expect(other.data.tracking_number).not.toBe(first.data.tracking_number);
    expect(JSON.parse(calls("ship")[0]!.body).imageInfo.imageType).toBe("ZPL203DPI");
  });

  it("buys an international label with its customs form", async () => {
    const { data } = await run((ctx) => uspsAdapter.ship(ctx, uspsInternationalShipRequest()));
    expect(isValidS10(data.tracking_number)).toBe(true);
    expect(data.tracking_number).toMatch(/^CP\d{9}US$/);
    const body = JSON.parse(calls("ship")[0]!.body);
    expect(calls("ship")[0]!.path).toBe("/international-labels/v3/international-label");
    expect(body.toAddress).toMatchObject({
      country: "United Kingdom",
      countryISOAlpha2Code: "GB",
      postalCode: "SW1A 2AA",
    });
    expect(body.customsForm).toMatchObject({
      customsContentType: "MERCHANDISE",
      AESITN: "NO EEI 30.37(a)",
      invoiceNumber: "INV-2024-0042",
      contents: [
        {
          itemDescription: "Cotton T-shirts, men's, short",
          itemQuantity: 3,
          itemTotalValue: 60,
          countryofOrigin: "US",
          HSTariffNumber: "610910",
        },
        { itemDescription: "Ceramic coffee mug", itemQuantity: 2, itemTotalValue: 120, countryofOrigin: "PT" },
      ],
    });
  });

  it("a label dated beyond USPS's 7 days is USPS's refusal naming the mailing date", async () => {
    const tz = uspsShipRequest().ship_date.time_zone;
    const inTenDays = new Date(Date.now() + 10 * DAY).toISOString().slice(0, 10);
    const error = await failure(
      run((ctx) => uspsAdapter.ship(ctx, uspsShipRequest({ ship_date: { date: inTenDays, time_zone: tz } }))),
    );
    expect(error.messages[0]).toMatchObject({ details: { status: 400, field: "packageDescription.mailingDate" } });
  });

  it("a label answer without a readable image is cancelled at once and reported, not sold unseen", async () => {
    const realFetch = globalThis.fetch;
    // The emulator's answer with its image swapped for text that is no PDF: what a broken gateway could pass on.
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const res = await realFetch(input, init);
      if (!String(input).endsWith("/labels/v3/label")) return res;
      const body = (await res.json()) as Record<string, unknown>;
      return new Response(JSON.stringify({ ...body, labelImage: Buffer.from("not a label").toString("base64") }), {
        status: res.status,
        headers: res.headers,
      });
    });
    try {
      const error = await failure(run((ctx) => uspsAdapter.ship(ctx, uspsShipRequest())));
      expect(error.code).toBe("carrier_bad_response");
      expect(error.message).toMatch(/^USPS sent a label that is not PDF\. USPS sold label \d{22}; it was cancelled\.$/);
      expect(calls("void")).toHaveLength(1);
    } finally {
      spy.mockRestore();
    }
  });

  it("refuses a domestic service abroad and a label type USPS does not draw here", async () => {
    const wrong = await failure(
      run((ctx) => uspsAdapter.ship(ctx, uspsInternationalShipRequest({ service: "PRIORITY_MAIL" }))),
    );
    expect(wrong.code).toBe("not_supported");
    const png = await failure(run((ctx) => uspsAdapter.ship(ctx, uspsShipRequest({ label_type: "PNG" }))));
    expect(png.code).toBe("not_supported");
    expect(calls("ship")).toHaveLength(0);
  });

  it("reports a refused payment account as carrier_auth_failed naming the account, and buys nothing", async () => {
    const error = await failure(
      run((ctx) => uspsAdapter.ship(ctx, uspsShipRequest()), {
        credentials: { ...USPS_CREDENTIALS, account_number: "REFUSED-1" },
      }),
    );
    expect(error.code).toBe("carrier_auth_failed");
    expect(error.message).toContain("the payment account EPS REFUSED-1");
    expect(error.message).not.toContain("OAuth");
    expect(calls("ship")).toHaveLength(0);
  });

  it("reports a refused OAuth client as carrier_auth_failed naming the client", async () => {
    const error = await failure(
      run((ctx) => uspsAdapter.rate(ctx, uspsRateRequest()), {
        credentials: { ...USPS_CREDENTIALS, client_id: "invalid-client" },
      }),
    );
    expect(error.code).toBe("carrier_auth_failed");
    expect(error.message).toBe("USPS refused the OAuth client: Client authentication failed.");
  });

  it("fetches both tokens again when they expire", async () => {
    await run((ctx) => uspsAdapter.ship(ctx, uspsShipRequest()));
    emulator.expireTokens("usps");
    const { data } = await run((ctx) => uspsAdapter.ship(ctx, uspsShipRequest({ shipment_key: "shp_2" })));
    expect(isValidImpb(data.tracking_number)).toBe(true);
    expect(calls("token")).toHaveLength(2);
    // A new access token was enough: the payment token (eight hours) was still good.
    expect(calls("payment")).toHaveLength(1);
  });

  it("asks for a new payment token when its eight hours have passed", async () => {
    await run((ctx) => uspsAdapter.ship(ctx, uspsShipRequest()));
    skewMs = 9 * HOUR;
    await run((ctx) => uspsAdapter.ship(ctx, uspsShipRequest({ shipment_key: "shp_2" })), {
      tokens: new TokenCache({ now: () => clock().getTime() }),
    });
    expect(calls("payment")).toHaveLength(2);
  });
});

describe("USPS against the emulator: cancel and refunds", () => {
  it("cancels a label before it is billed: voided, nothing to refund, and a second cancel says the same", async () => {
    const { data } = await run((ctx) => uspsAdapter.ship(ctx, uspsShipRequest()));
    const req = { tracking_number: data.tracking_number, shipment_identifier: data.shipment_identifier };
    const first = await run((ctx) => uspsAdapter.void(ctx, req));
    expect(first.data).toEqual({ voided: true, refund: null });
    const again = await run((ctx) => uspsAdapter.void(ctx, req));
    expect(again.data).toEqual({ voided: true, refund: null });
    expect(calls("void")[0]!.path).toBe(`/labels/v3/label/${data.tracking_number}`);
  });

  it("a billed label's refund stays pending while nothing is scanned, then settles on a later check", async () => {
    const { data } = await run((ctx) => uspsAdapter.ship(ctx, uspsShipRequest()));
    skewMs = 20 * 60_000;
    const cancelled = await run((ctx) =>
      uspsAdapter.void(ctx, { tracking_number: data.tracking_number, shipment_identifier: null }),
    );
    expect(cancelled.data.refund).toEqual({ status: "pending", reference: expect.stringMatching(/^\d+$/) });
    expect(cancelled.messages[0]).toMatchObject({ code: "USPS_REFUND_PENDING", level: "info" });
    const check = {
      tracking_number: data.tracking_number,
      shipment_identifier: data.tracking_number,
      refund: cancelled.data.refund!,
      requested_at: clock(),
    };
    skewMs += 3 * DAY;
    const early = await run((ctx) => uspsAdapter.checkRefund(ctx, check));
    expect(early.data).toEqual({ status: "pending", reference: check.refund.reference });
    skewMs += 28 * DAY;
    const later = await run((ctx) => uspsAdapter.checkRefund(ctx, check));
    expect(later.data).toEqual({ status: "refunded", reference: check.refund.reference });
    expect(later.messages[0]!.message).toContain("No scan of the label within 30 days");
  });

  it("labels disputed the same day share the CRID's dispute id; a second request that day is the one USPS holds", async () => {
    const a = await run((ctx) => uspsAdapter.ship(ctx, uspsShipRequest({ shipment_key: "shp_a" })));
    const b = await run((ctx) => uspsAdapter.ship(ctx, uspsShipRequest({ shipment_key: "shp_b" })));
    skewMs = 20 * 60_000;
    const va = await run((ctx) =>
      uspsAdapter.void(ctx, { tracking_number: a.data.tracking_number, shipment_identifier: null }),
    );
    const vb = await run((ctx) =>
      uspsAdapter.void(ctx, { tracking_number: b.data.tracking_number, shipment_identifier: null }),
    );
    expect(vb.data.refund!.reference).toBe(va.data.refund!.reference);
    // USPS refuses the same label's second request that day (its 400, in the file's words): the label is voided and
    // its refund pending all the same, so a void whose first answer was lost, repeated, settles as voided.
    const again = await run((ctx) =>
      uspsAdapter.void(ctx, { tracking_number: a.data.tracking_number, shipment_identifier: null }),
    );
    expect(again.data).toEqual({ voided: true, refund: { status: "pending", reference: null } });
    expect(again.messages).toEqual([expect.objectContaining({ code: "USPS_REFUND_PENDING", level: "info" })]);
    expect(calls("void").at(-1)!.status).toBe(400);
  });

  it("a refusal of a cancellation for another reason stays a refusal", async () => {
    const failed = await failure(
      run((ctx) => uspsAdapter.void(ctx, { tracking_number: "9205590000000999999999", shipment_identifier: null })),
    );
    expect(failed.messages[0]).toMatchObject({ details: { status: 400 } });
  });

  it("a refund is refused when the parcel was scanned: the label was used", async () => {
    const { data } = await run((ctx) => uspsAdapter.ship(ctx, uspsShipRequest()));
    skewMs = 3 * HOUR;
    const cancelled = await run((ctx) =>
      uspsAdapter.void(ctx, { tracking_number: data.tracking_number, shipment_identifier: null }),
    );
    expect(cancelled.data.refund?.status).toBe("pending");
    const refund = await run((ctx) =>
      uspsAdapter.checkRefund(ctx, {
        tracking_number: data.tracking_number,
        shipment_identifier: null,
        refund: cancelled.data.refund!,
        requested_at: clock(),
      }),
    );
    expect(refund.data.status).toBe("refused");
  });

  it("the review window is the connection's", async () => {
    const { data } = await run((ctx) => uspsAdapter.ship(ctx, uspsShipRequest()));
    skewMs = 20 * 60_000;
    const cancelled = await run((ctx) =>
      uspsAdapter.void(ctx, { tracking_number: data.tracking_number, shipment_identifier: null }),
    );
    const requested_at = clock();
    skewMs += 8 * DAY;
    const refund = await run(
      (ctx) =>
        uspsAdapter.checkRefund(ctx, {
          tracking_number: data.tracking_number,
          shipment_identifier: null,
          refund: cancelled.data.refund!,
          requested_at,
        }),
      { config: { refund_review_days: 7 } },
    );
    expect(refund.data.status).toBe("refunded");
  });

  it("cancels an international label at its own path", async () => {
    const { data } = await run((ctx) => uspsAdapter.ship(ctx, uspsInternationalShipRequest()));
    await run((ctx) => uspsAdapter.void(ctx, { tracking_number: data.tracking_number, shipment_identifier: null }));
    expect(calls("void")[0]!.path).toBe(`/international-labels/v3/international-label/${data.tracking_number}`);
  });
});

describe("USPS against the emulator: tracking", () => {
  it("follows a parcel from its label to its delivery, newest event first", async () => {
    const { data } = await run((ctx) => uspsAdapter.ship(ctx, uspsShipRequest()));
    const created = await run((ctx) => uspsAdapter.track(ctx, data.tracking_number));
    expect(created.data.status).toBe("pending");
    expect(created.data.events.map((e) => e.code)).toEqual(["GX"]);
    skewMs = 41 * HOUR;
    const out = await run((ctx) => uspsAdapter.track(ctx, data.tracking_number));
    expect(out.data.status).toBe("out_for_delivery");
    expect(out.data.events.map((e) => e.code)).toEqual(["OF", "07", "A1", "T1", "10", "SF", "03", "GX"]);
    expect(out.data.events[0]).toMatchObject({ description: "Out for Delivery", location: "OKLAHOMA CITY, OK 73108" });
    expect(out.data.estimated_delivery).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(out.data.meta).toEqual({ mail_class: "PRIORITY_MAIL" });
    skewMs = 47 * HOUR;
    const done = await run((ctx) => uspsAdapter.track(ctx, data.tracking_number));
    expect(done.data.status).toBe("delivered");
    expect(calls("track")[0]!.path).toBe(`/tracking/v3/tracking/${data.tracking_number}`);
  });

  it.each([
    ["JOURNEY-ATTEMPT", 50, "delivery_failed"],
    ["JOURNEY-RETURN", 61, "return_to_sender"],
    ["JOURNEY-DELAY", 50, "delivery_delayed"],
    ["JOURNEY-LOST", 121, "lost"],
  ] as const)("reference %s ends its journey as %s", async (reference, hours, status) => {
    const { data } = await run((ctx) => uspsAdapter.ship(ctx, uspsShipRequest({ reference })));
    skewMs = hours * HOUR;
    expect((await run((ctx) => uspsAdapter.track(ctx, data.tracking_number))).data.status).toBe(status);
  });

  it("answers tracking_not_found for a number USPS does not know, and for text that is no USPS number", async () => {
    const unknown = await failure(run((ctx) => uspsAdapter.track(ctx, "9205590000000100000018")));
    expect(unknown.code).toBe("tracking_not_found");
    const junk = await failure(run((ctx) => uspsAdapter.track(ctx, "not-a-number")));
    expect(junk.code).toBe("tracking_not_found");
    expect(calls("track")).toHaveLength(1);
  });
});

describe("USPS against the emulator: faults", () => {
  const faults: [string, Parameters<Emulator["set"]>[1], string][] = [
    ["a 503", { fault: { kind: "status", status: 503 } }, "carrier_unavailable"],
    ["a 429 it cannot wait out", { fault: { kind: "rate_limited", retry_after_s: 120 } }, "carrier_rate_limited"],
    ["a body that is not JSON", { fault: { kind: "malformed" } }, "carrier_bad_response"],
  ];
  it.each(faults)("%s → %s", async (_, switches, code) => {
    emulator.set("usps", switches);
    const error = await failure(run((ctx) => uspsAdapter.track(ctx, "9205590000000100000018"), { deadlineMs: 1500 }));
    expect(hasCode(error.messages, code as never)).toBe(true);
  });

  it("no answer → carrier_timeout at the deadline", async () => {
    emulator.set("usps", { fault: { kind: "hang" } });
    fakeTimeouts();
    const error = await failure(
      atDeadline(
        run((ctx) => uspsAdapter.track(ctx, "9205590000000100000018"), { deadlineMs: 1500 }),
        () => calls("track").length > 0,
        1500,
      ),
    );
    expect(error.code).toBe("carrier_timeout");
  });

  it("a refused payment authorization with a 503 is unavailable, not an account failure", async () => {
    emulator.set("usps", { fault: { kind: "status", status: 503 }, fault_operations: ["payment"] });
    const error = await failure(run((ctx) => uspsAdapter.ship(ctx, uspsShipRequest())));
    expect(error.code).toBe("carrier_unavailable");
  });

  it("a 429 on the label is rate limited, with nothing bought", async () => {
    emulator.set("usps", { fault: { kind: "rate_limited", retry_after_s: 120 }, fault_operations: ["ship"] });
    const error = await failure(run((ctx) => uspsAdapter.ship(ctx, uspsShipRequest())));
    expect(error.code).toBe("carrier_rate_limited");
  });
});

describe("USPS against the emulator: options", () => {
  it("prices and buys signature and insurance as USPS extra services; warns about what it cannot send", async () => {
    const options = { signature_confirmation: "adult", insurance: 800, saturday_delivery: true, color: "red" };
    const plain = await run((ctx) => uspsAdapter.rate(ctx, uspsRateRequest({ services: ["PRIORITY_MAIL"] })));
    const rated = await run((ctx) => uspsAdapter.rate(ctx, uspsRateRequest({ services: ["PRIORITY_MAIL"], options })));
    expect(rated.data[0]!.total_charge).toBeGreaterThan(plain.data[0]!.total_charge);
    expect(rated.data[0]!.extra_charges.map((e) => e.name)).toEqual([
      "Adult Signature Required 21 or Over",
      "Insurance > $500",
    ]);
    expect(rated.messages.map((m) => m.details?.field)).toEqual(["options.color", "options.saturday_delivery"]);
    expect(JSON.parse(calls("rate")[1]!.body).packageDescription).toMatchObject({
      extraServices: [922, 931],
      packageValue: 800,
    });

    const { data } = await run((ctx) => uspsAdapter.ship(ctx, uspsShipRequest({ options })));
    expect(data.charge!.extra_charges.map((e) => e.name)).toEqual([
      "Adult Signature Required 21 or Over",
      "Insurance > $500",
    ]);
    expect(JSON.parse(calls("ship")[0]!.body).packageDescription).toMatchObject({
      extraServices: [922, 931],
      packageOptions: { packageValue: 800 },
      physicalSignatureRequired: true,
    });
  });

  it("prices a parcel in USPS packaging as the shipper's own box, and says so", async () => {
    const req = uspsRateRequest();
    const { messages } = await run((ctx) =>
      uspsAdapter.rate(ctx, { ...req, parcels: [{ ...req.parcels[0]!, packaging_type: "small_box" }] }),
    );
    expect(messages).toEqual([
      expect.objectContaining({ code: "not_supported", details: { field: "parcels[0].packaging_type" } }),
    ]);
  });

  it("Priority Mail Express takes its own signature and insurance codes; international mail none", async () => {
    await run((ctx) =>
      uspsAdapter.ship(
        ctx,
        uspsShipRequest({
          service: "PRIORITY_MAIL_EXPRESS",
          options: { signature_confirmation: "standard", insurance: 50 },
        }),
      ),
    );
    expect(JSON.parse(calls("ship")[0]!.body).packageDescription.extraServices).toEqual([981, 925]);
    const abroad = await run((ctx) =>
      uspsAdapter.ship(ctx, uspsInternationalShipRequest({ options: { insurance: 50 } })),
    );
    expect(abroad.messages).toContainEqual(
      expect.objectContaining({ code: "not_supported", details: { field: "options.insurance" } }),
    );
  });
});

describe("USPS tokens and credentials, refused and broken", () => {
  const statusFault = (status: number, operations: Operation[]) =>
    emulator.set("usps", { fault: { kind: "status", status }, fault_operations: operations });

  it.each([400, 401, 403])("the token endpoint's %i is carrier_auth_failed naming the OAuth client", async (status) => {
    statusFault(status, ["token"]);
    const error = await failure(run((ctx) => uspsAdapter.track(ctx, "9205590000000100000018")));
    expect(error.code).toBe("carrier_auth_failed");
    expect(error.message).toMatch(/^USPS refused the OAuth client/);
  });

  it("the token endpoint's 500 is the carrier unavailable, not a refusal", async () => {
    statusFault(500, ["token"]);
    const error = await failure(run((ctx) => uspsAdapter.track(ctx, "9205590000000100000018")));
    expect(error.code).not.toBe("carrier_auth_failed");
    expect(hasCode(error.messages, "carrier_unavailable")).toBe(true);
  });

  it("a payment authorization answered 4xx names the payment account; a 5xx is the carrier unavailable", async () => {
    statusFault(409, ["payment"]);
    const refused = await failure(run((ctx) => uspsAdapter.ship(ctx, uspsShipRequest())));
    expect(refused.code).toBe("carrier_auth_failed");
    expect(refused.message).toMatch(/^USPS refused the payment account EPS 1000012345/);
    emulator.reset();
    statusFault(500, ["payment"]);
    const down = await failure(run((ctx) => uspsAdapter.ship(ctx, uspsShipRequest())));
    expect(hasCode(down.messages, "carrier_unavailable")).toBe(true);
    expect(calls("ship")).toHaveLength(0);
  });

  it("a PERMIT account sends its permit ZIP Code in both roles; an EPS account never does", async () => {
    const permit = { ...USPS_CREDENTIALS, account_type: "PERMIT", permit_zip: "29440" };
    await run((ctx) => uspsAdapter.ship(ctx, uspsShipRequest()), { credentials: permit });
    const roles = JSON.parse(calls("payment")[0]!.body).roles as Record<string, unknown>[];
    expect(roles.map((r) => [r.accountType, r.permitZIP])).toEqual([
      ["PERMIT", "29440"],
      ["PERMIT", "29440"],
    ]);
    emulator.reset();
    tokens = new TokenCache();
    await run((ctx) => uspsAdapter.ship(ctx, uspsShipRequest()), {
      credentials: { ...USPS_CREDENTIALS, permit_zip: "29440" },
    });
    const eps = JSON.parse(calls("payment")[0]!.body).roles as Record<string, unknown>[];
    expect(eps.every((r) => !("permitZIP" in r))).toBe(true);
    // Without a manifest MID, the MID manifests.
    emulator.reset();
    tokens = new TokenCache();
    const { manifest_mid: _, ...noManifest } = USPS_CREDENTIALS;
    await run((ctx) => uspsAdapter.ship(ctx, uspsShipRequest()), { credentials: noManifest });
    expect(JSON.parse(calls("payment")[0]!.body).roles[0].manifestMID).toBe(USPS_CREDENTIALS.mid);
  });

  it("credentials read defensively: incomplete ones are carrier_auth_failed naming the fields, before any call", async () => {
    const error = await failure(
      run((ctx) => uspsAdapter.track(ctx, "9205590000000100000018"), {
        credentials: { ...USPS_CREDENTIALS, mid: "12345", permit_zip: "2944" },
      }),
    );
    expect(error.code).toBe("carrier_auth_failed");
    expect(error.messages[0]!.details).toEqual({ fields: ["mid", "permit_zip"] });
    expect(emulator.calls).toHaveLength(0);
  });
});

describe("USPS's credentials schema", () => {
  const parse = (over: Record<string, unknown>) => uspsCredentialsSchema.safeParse({ ...USPS_CREDENTIALS, ...over });
  it.each([
    ["a 6-digit MID", { mid: "123456" }, true],
    ["a 9-digit MID", { mid: " 900000001 " }, true],
    ["a 7-digit MID", { mid: "1234567" }, false],
    ["a MID with letters", { mid: "12345a" }, false],
    ["a 9-digit MID with a tail", { mid: "9000000012" }, false],
    ["a 5-digit permit ZIP", { permit_zip: "29440" }, true],
    ["a ZIP+4 permit ZIP", { permit_zip: "29440-1234" }, false],
    ["a 4-digit permit ZIP", { permit_zip: "2944" }, false],
    ["a blank client id", { client_id: "  " }, false],
    ["a one-letter CRID", { crid: "5" }, false],
    ["an unknown account type", { account_type: "CARD" }, false],
    ["a field USPS does not have", { password: "x" }, false],
  ])("%s: %s", (_name, over, ok) => {
    expect(parse(over).success).toBe(ok);
  });
});

describe("USPS cancellations, answer by answer", () => {
  it("a label cancelled before USPS billed it is voided with no refund; spaces in its number do not matter", async () => {
    const { data } = await run((ctx) => uspsAdapter.ship(ctx, uspsShipRequest()));
    const spaced = data.tracking_number.replace(/(\d{4})/g, "$1 ");
    const voided = await run((ctx) => uspsAdapter.void(ctx, { tracking_number: spaced, shipment_identifier: null }));
    expect(voided.data).toEqual({ voided: true, refund: null });
    expect(voided.messages).toEqual([]);
    expect(calls("void")[0]!.path).toBe(`/labels/v3/label/${data.tracking_number}`);
  });

  it("an international label is cancelled at the international path", async () => {
    const { data } = await run((ctx) => uspsAdapter.ship(ctx, uspsInternationalShipRequest()));
    await run((ctx) => uspsAdapter.void(ctx, { tracking_number: data.tracking_number, shipment_identifier: null }));
    expect(calls("void")[0]!.path).toBe(`/international-labels/v3/international-label/${data.tracking_number}`);
  });

  it("a cancellation lost to a 5xx is sent again, and voids", async () => {
    const { data } = await run((ctx) => uspsAdapter.ship(ctx, uspsShipRequest()));
    emulator.set("usps", { fault: { kind: "status", status: 503 }, fault_operations: ["void"], fault_times: 1 });
    const voided = await run((ctx) =>
      uspsAdapter.void(ctx, { tracking_number: data.tracking_number, shipment_identifier: null }),
    );
    expect(voided.data.voided).toBe(true);
    expect(calls("void").map((c) => c.status)).toEqual([503, 200]);
  });

  it("a refund request's answer carries its dispute id and says so; one without an id is still pending", async () => {
    const { data } = await run((ctx) => uspsAdapter.ship(ctx, uspsShipRequest()));
    skewMs = 20 * 60_000;
    const disputed = await run((ctx) =>
      uspsAdapter.void(ctx, { tracking_number: data.tracking_number, shipment_identifier: null }),
    );
    const id = disputed.data.refund!.reference!;
    expect(disputed.data.refund).toEqual({ status: "pending", reference: expect.stringMatching(/^\d+$/) });
    expect(disputed.messages).toEqual([
      expect.objectContaining({
        code: "USPS_REFUND_PENDING",
        level: "info",
        message: `USPS had billed the label, so it opened a refund request (dispute ${id}); the refund is pending until USPS settles it.`,
      }),
    ]);
  });
});
