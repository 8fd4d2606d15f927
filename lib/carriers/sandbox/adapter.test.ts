import { rejection } from "@/test/carrier-rejection";
import { PDFDocument } from "pdf-lib";
import { PNG } from "pngjs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TokenCache } from "@/lib/carriers/http/token-cache";
import { CarrierError, type LabelType, type ShipRequest, type TrackingResult } from "@/lib/carriers/types";
import { createSandboxAdapter, sandboxAdapter, shipmentIdentifierFor } from "@/lib/carriers/sandbox/adapter";
import { makeTrackingNumber, parseTrackingNumber } from "@/lib/carriers/sandbox/tracking-number";
import {
  memoryLedger,
  sandboxTestContext,
  testAddress,
  testParcel,
  testRateRequest,
  testShipRequest,
} from "@/test/sandbox-context";
import { isZpl } from "@/lib/labels/check";
import { fedexCustoms } from "@/test/fedex-context";
import { pdfLines } from "@/test/pdf-text";

const now = new Date("2024-03-04T15:00:00Z");
const later = (minutes: number): Date => new Date(now.getTime() + minutes * 60_000);
// Pace 60: one simulated hour per real minute (pickup happens 3 minutes after purchase).
const ctxAt = (when: Date, extra: Parameters<typeof sandboxTestContext>[0] = {}) =>
  sandboxTestContext({ now: when, config: { pace: 60 }, ...extra });

afterEach(() => {
  vi.useRealTimers();
});

describe("sandbox adapter description", () => {
  it("declares what it can do", () => {
    expect(sandboxAdapter.carrier_name).toBe("sandbox");
    expect(sandboxAdapter.display_name).toBe("Sandbox");
    expect(sandboxAdapter.capabilities).toEqual(["rates", "ship", "void", "track", "multi_track", "lookup"]);
    expect(sandboxAdapter.label_types).toEqual(["PDF", "ZPL", "PNG"]);
    expect(typeof sandboxAdapter.trackMany).toBe("function");
  });

  it("validates credentials strictly: no credentials, or an api_key of 8–200 characters", () => {
    const s = sandboxAdapter.credentialsSchema;
    expect(s.safeParse({}).success).toBe(true);
    expect(s.safeParse({ api_key: "sandbox_key_1" }).success).toBe(true);
    expect(s.safeParse({ api_key: "short" }).success).toBe(false);
    expect(s.safeParse({ api_key: "x".repeat(201) }).success).toBe(false);
    expect(s.safeParse({ api_key: "sandbox_key_1", secret: "x" }).success).toBe(false);
  });

  it("validates config strictly", () => {
    const s = sandboxAdapter.configSchema;
    expect(s.safeParse({}).success).toBe(true);
    expect(
      s.safeParse({
        latency_ms: 300,
        failure_rate: 0.2,
        fail_operations: ["track", "lookup"],
        lost_answers: ["ship", "void"],
        rate_limit_every: 5,
        pace: 1,
        fuel_surcharge_percent: 10,
      }).success,
    ).toBe(true);
    for (const bad of [
      { latency_ms: 30_001 },
      { failure_rate: 1.5 },
      { fail_operations: ["label"] },
      { lost_answers: ["track"] },
      { rate_limit_every: 0 },
      { pace: 0 },
      { pace: 10_001 },
      { speed: 2 },
    ]) {
      expect(s.safeParse(bad).success).toBe(false);
    }
  });
});

describe("rate", () => {
  it("quotes the domestic services with no messages", async () => {
    const { data, messages } = await sandboxAdapter.rate(ctxAt(now), testRateRequest());
    expect(data.map((q) => [q.service, q.total_charge])).toEqual([
      ["SBX_GROUND", 13.35],
      ["SBX_2DAY", 22.95],
      ["SBX_OVERNIGHT", 37.56],
    ]);
    expect(messages).toEqual([]);
  });

  it("quotes only the international service across borders", async () => {
    const req = testRateRequest({
      recipient: testAddress({ country_code: "DE", city: "Berlin", postal_code: "10115", state_code: "" }),
    });
    const { data } = await sandboxAdapter.rate(ctxAt(now), req);
    expect(data.map((q) => q.service)).toEqual(["SBX_INTL"]);
  });

  it("honours config fuel_surcharge_percent", async () => {
    const { data } = await sandboxAdapter.rate(
      sandboxTestContext({ now, config: { fuel_surcharge_percent: 0 } }),
      testRateRequest({ services: ["SBX_GROUND"] }),
    );
    expect(data[0]!.total_charge).toBe(12.3);
  });

  it("restricts to requested services and warns about those not offered on the route", async () => {
    const only = await sandboxAdapter.rate(ctxAt(now), testRateRequest({ services: ["SBX_2DAY"] }));
    expect(only.data.map((q) => q.service)).toEqual(["SBX_2DAY"]);
    const mixed = await sandboxAdapter.rate(ctxAt(now), testRateRequest({ services: ["SBX_GROUND", "SBX_INTL"] }));
    expect(mixed.data.map((q) => q.service)).toEqual(["SBX_GROUND"]);
    expect(mixed.messages).toEqual([
      {
        code: "SBX_SERVICE_NOT_AVAILABLE",
        level: "warning",
        message: "Service SBX_INTL is not available from US to US.",
        details: { service: "SBX_INTL" },
      },
    ]);
    expect((await rejection(sandboxAdapter.rate(ctxAt(now), testRateRequest({ services: ["SBX_INTL"] })))).code).toBe(
      "SBX_SERVICE_NOT_AVAILABLE",
    );
    expect((await rejection(sandboxAdapter.rate(ctxAt(now), testRateRequest({ services: ["ups_ground"] })))).code).toBe(
      "SBX_UNKNOWN_SERVICE",
    );
  });

  it("refuses postal code 00000 and overweight parcels", async () => {
    const badZip = await rejection(
      sandboxAdapter.rate(ctxAt(now), testRateRequest({ recipient: testAddress({ postal_code: "00000" }) })),
    );
    expect(badZip.messages[0]).toMatchObject({
      code: "SBX_INVALID_POSTAL_CODE",
      message: "Invalid postal code 00000 for US.",
      level: "error",
    });
    const heavy = await rejection(
      sandboxAdapter.rate(ctxAt(now), testRateRequest({ parcels: [testParcel({ weight: 71 })] })),
    );
    expect(heavy.code).toBe("SBX_WEIGHT_LIMIT_EXCEEDED");
  });
});

describe("ship", () => {
  it.each<LabelType>(["PDF", "ZPL", "PNG"])("issues a %s label that opens", async (type) => {
    const { data, messages } = await sandboxAdapter.ship(ctxAt(now), testShipRequest({ label_type: type }));
    expect(messages).toEqual([]);
    expect(data.label.type).toBe(type);
    if (type === "PDF") {
      const doc = await PDFDocument.load(data.label.bytes);
      expect(doc.getPages()[0]!.getSize()).toEqual({ width: 288, height: 432 });
    } else if (type === "PNG") {
      const png = PNG.sync.read(Buffer.from(data.label.bytes));
      expect([png.width, png.height]).toEqual([812, 1218]);
    } else {
      const zpl = new TextDecoder().decode(data.label.bytes);
      expect(isZpl(zpl)).toBe(true);
      expect(zpl).toContain(`^FD${data.tracking_number}^FS`);
      expect(zpl).toContain("^FDSANDBOX TEST LABEL - NOT VALID FOR SHIPPING^FS");
    }
  });

  it("returns a parsable tracking number, a matching shipment id and the rate as charge", async () => {
    const adapter = createSandboxAdapter({ serial: () => 123 });
    const { data } = await adapter.ship(ctxAt(now), testShipRequest({ service: "SBX_2DAY", label_type: "ZPL" }));
    expect(parseTrackingNumber(data.tracking_number)).toEqual({
      purchasedAt: now,
      scenario: 0,
      international: false,
      originCountry: 0,
      originCity: 0, // New York
      destinationCountry: 0,
      destinationCity: 1, // Los Angeles
      serial: 123,
    });
    expect(data.shipment_identifier).toBe(shipmentIdentifierFor(data.tracking_number));
    expect(data.shipment_identifier).toMatch(/^SBXS[0-9A-F]{16}$/);
    const rates = await adapter.rate(ctxAt(now), testRateRequest({ services: ["SBX_2DAY"] }));
    expect(data.charge).toEqual(rates.data[0]);
    expect(data.meta).toEqual({ service_name: "Sandbox 2-Day", scenario: "delivered" });
  });

  it("takes the scenario from options.sandbox_scenario as a digit or a name", async () => {
    for (const [value, digit] of [
      [5, 5],
      ["6", 6],
      ["return_to_sender", 5],
      ["customs_hold", 7],
      [null, 0],
    ] as const) {
      const { data } = await sandboxAdapter.ship(
        ctxAt(now),
        testShipRequest({ label_type: "ZPL", options: { sandbox_scenario: value } }),
      );
      expect(parseTrackingNumber(data.tracking_number)?.scenario).toBe(digit);
    }
    const bad = await rejection(
      sandboxAdapter.ship(ctxAt(now), testShipRequest({ options: { sandbox_scenario: "explode" } })),
    );
    expect(bad.code).toBe("SBX_INVALID_OPTION");
  });

  it("refuses unknown services and services that do not serve the route", async () => {
    const unknown = await rejection(sandboxAdapter.ship(ctxAt(now), testShipRequest({ service: "SBX_TELEPORT" })));
    expect(unknown.messages[0]).toMatchObject({
      code: "SBX_UNKNOWN_SERVICE",
      message: "Unknown service code SBX_TELEPORT. Valid services: SBX_GROUND, SBX_2DAY, SBX_OVERNIGHT, SBX_INTL.",
    });
    const intl = await rejection(sandboxAdapter.ship(ctxAt(now), testShipRequest({ service: "SBX_INTL" })));
    expect(intl.code).toBe("SBX_SERVICE_NOT_AVAILABLE");
    const groundAbroad = await rejection(
      sandboxAdapter.ship(
        ctxAt(now),
        testShipRequest({
          recipient: testAddress({ country_code: "CA", city: "Toronto", postal_code: "M5V 2T6", state_code: "ON" }),
        }),
      ),
    );
    expect(groundAbroad.code).toBe("SBX_SERVICE_NOT_AVAILABLE");
    expect(
      (
        await rejection(
          sandboxAdapter.ship(ctxAt(now), testShipRequest({ shipper: testAddress({ postal_code: "00000" }) })),
        )
      ).code,
    ).toBe("SBX_INVALID_POSTAL_CODE");
  });

  it("routes an international label through the right countries", async () => {
    const { data } = await sandboxAdapter.ship(
      ctxAt(now),
      testShipRequest({
        service: "SBX_INTL",
        label_type: "ZPL",
        recipient: testAddress({ country_code: "CA", city: "Vancouver", postal_code: "V6B 1A1", state_code: "BC" }),
      }),
    );
    const parts = parseTrackingNumber(data.tracking_number)!;
    expect(parts).toMatchObject({ international: true, originCountry: 0, destinationCountry: 1, destinationCity: 2 });
    const tracked = await sandboxAdapter.track(ctxAt(later(83)), data.tracking_number);
    expect(tracked.data.status).toBe("delivered");
    expect(tracked.data.events[0]!.location).toBe("Vancouver, BC, CA");
  });
});

describe("documents", () => {
  const toCanada = (customs: ShipRequest["customs"]) =>
    testShipRequest({
      service: "SBX_INTL",
      recipient: testAddress({ country_code: "CA", city: "Vancouver", postal_code: "V6B 1A1", state_code: "BC" }),
      customs,
    });

  it("hands a commercial invoice PDF beside an international label, paperless or not, and none at home", async () => {
    for (const commercial_invoice of [true, false]) {
      const { data } = await sandboxAdapter.ship(ctxAt(now), toCanada(fedexCustoms({ commercial_invoice })));
      expect(data.documents).toHaveLength(1);
      expect(data.documents[0]).toMatchObject({
        type: "commercial_invoice",
        format: "PDF",
        name: "Commercial invoice",
      });
      const invoice = await PDFDocument.load(data.documents[0]!.bytes);
      expect(invoice.getPage(0).getSize()).toEqual({ width: 612, height: 792 });
      expect(invoice.getTitle()).toBe(`Commercial invoice ${data.tracking_number}`);
    }
    const domestic = await sandboxAdapter.ship(ctxAt(now), testShipRequest());
    expect(domestic.data.documents).toEqual([]);
  });

  it("documents alone travel without an invoice", async () => {
    const customs = fedexCustoms({ content_type: "documents", commodities: [], commercial_invoice: false });
    const { data } = await sandboxAdapter.ship(ctxAt(now), toCanada(customs));
    expect(data.documents).toEqual([]);
  });

  it("keeps the invoice on its books: a lookup answers it with the label", async () => {
    const ledger = memoryLedger();
    const sold = await sandboxAdapter.ship(ctxAt(now, { ledger }), toCanada(fedexCustoms()));
    const found = await sandboxAdapter.findShipments(ctxAt(later(1), { ledger }), {
      reference: "ORDER-1",
      sold_since: now,
    });
    expect(found.data[0]!.documents).toEqual(sold.data.documents);
  });
});

describe("void", () => {
  it("voids before pickup and refuses after", async () => {
    const { data } = await sandboxAdapter.ship(ctxAt(now), testShipRequest({ label_type: "ZPL" }));
    const req = { tracking_number: data.tracking_number, shipment_identifier: data.shipment_identifier };
    expect(await sandboxAdapter.void(ctxAt(later(2)), req)).toEqual({
      data: { voided: true, refund: null },
      messages: [],
    });
    const refused = await rejection(sandboxAdapter.void(ctxAt(later(3)), req));
    expect(refused.messages[0]).toMatchObject({
      code: "SBX_VOID_NOT_ALLOWED",
      message: "Shipment has already been picked up and can no longer be voided.",
    });
  });

  it("can always void a parcel that is never picked up (scenario 1)", async () => {
    const n = makeTrackingNumber({ purchasedAt: now, scenario: 1 });
    expect(
      (await sandboxAdapter.void(ctxAt(later(100_000)), { tracking_number: n, shipment_identifier: null })).data.voided,
    ).toBe(true);
  });

  it("does not know invalid numbers, scenario 9, or a shipment id of another label", async () => {
    const bad = await rejection(
      sandboxAdapter.void(ctxAt(now), { tracking_number: "SBX123", shipment_identifier: null }),
    );
    expect(bad.messages[0]).toMatchObject({
      code: "tracking_not_found",
      message: "Tracking number SBX123 was not found.",
    });
    const nine = makeTrackingNumber({ purchasedAt: now, scenario: 9 });
    expect(
      (await rejection(sandboxAdapter.void(ctxAt(now), { tracking_number: nine, shipment_identifier: null }))).code,
    ).toBe("tracking_not_found");
    const n = makeTrackingNumber({ purchasedAt: now });
    const mismatch = await rejection(
      sandboxAdapter.void(ctxAt(now), { tracking_number: n, shipment_identifier: "SBXS0000000000000000" }),
    );
    expect(mismatch.code).toBe("SBX_SHIPMENT_MISMATCH");
  });
});

describe("the books (what the sandbox remembers)", () => {
  it("puts every sale on its books before answering, and finds live sales by reference since a time", async () => {
    const ledger = memoryLedger();
    const first = await sandboxAdapter.ship(ctxAt(now, { ledger }), testShipRequest({ reference: "ORDER-7" }));
    const second = await sandboxAdapter.ship(ctxAt(later(10), { ledger }), testShipRequest({ reference: "ORDER-7" }));
    await sandboxAdapter.ship(ctxAt(later(10), { ledger }), testShipRequest({ reference: "ORDER-8" }));
    expect(ledger.sales.size).toBe(3);

    const found = await sandboxAdapter.findShipments(ctxAt(later(11), { ledger }), {
      reference: "ORDER-7",
      sold_since: now,
    });
    expect(found.data.map((f) => f.tracking_number)).toEqual([first.data.tracking_number, second.data.tracking_number]);
    // What ship answered, label bytes included, plus when, under which reference and for which shipment it was sold.
    expect(found.data[0]).toEqual({
      ...first.data,
      reference: "ORDER-7",
      shipment_key: testShipRequest().shipment_key,
      sold_at: now,
    });
    const since = await sandboxAdapter.findShipments(ctxAt(later(11), { ledger }), {
      reference: "ORDER-7",
      sold_since: later(5),
    });
    expect(since.data.map((f) => f.tracking_number)).toEqual([second.data.tracking_number]);
    const none = await sandboxAdapter.findShipments(ctxAt(later(11), { ledger }), {
      reference: "ORDER-9",
      sold_since: now,
    });
    expect(none.data).toEqual([]);
  });

  it("leaves voided labels out of lookups, and answers a second void as done even after pickup", async () => {
    const ledger = memoryLedger();
    const { data } = await sandboxAdapter.ship(ctxAt(now, { ledger }), testShipRequest({ reference: "ORDER-1" }));
    const req = { tracking_number: data.tracking_number, shipment_identifier: data.shipment_identifier };
    expect(await sandboxAdapter.void(ctxAt(later(1), { ledger }), req)).toEqual({
      data: { voided: true, refund: null },
      messages: [],
    });
    // Pickup (3 simulated hours) is long past: an earlier void still counts, and says so.
    const again = await sandboxAdapter.void(ctxAt(later(60), { ledger }), req);
    expect(again.data).toEqual({ voided: true, refund: null });
    expect(again.messages).toEqual([
      expect.objectContaining({
        code: "SBX_ALREADY_VOIDED",
        level: "info",
        details: expect.objectContaining({ voided_at: later(1).toISOString() }),
      }),
    ]);
    const found = await sandboxAdapter.findShipments(ctxAt(later(61), { ledger }), {
      reference: "ORDER-1",
      sold_since: now,
    });
    expect(found.data).toEqual([]);
  });

  it("draws another serial when a tracking number is already on the books", async () => {
    const serials = [7, 7, 8];
    const adapter = createSandboxAdapter({ serial: () => serials.shift()! });
    const ledger = memoryLedger();
    const a = await adapter.ship(ctxAt(now, { ledger }), testShipRequest());
    const b = await adapter.ship(ctxAt(now, { ledger }), testShipRequest());
    expect([a, b].map((r) => parseTrackingNumber(r.data.tracking_number)?.serial)).toEqual([7, 8]);
  });

  it("lost_answers: the sale or the void happens, then the answer never comes (the caller's deadline ends it)", async () => {
    const ledger = memoryLedger();
    const controller = new AbortController();
    const lost = { config: { pace: 60, lost_answers: ["ship", "void"] }, ledger, signal: controller.signal };
    const shipping = sandboxAdapter.ship(sandboxTestContext({ now, ...lost }), testShipRequest({ reference: "R-1" }));
    await vi.waitFor(() => expect(ledger.sales.size).toBe(1));
    controller.abort(new CarrierError("carrier_timeout", "Sandbox did not answer in time."));
    expect((await rejection(shipping)).code).toBe("carrier_timeout");
    const [sold] = ledger.sales.values();

    const voidController = new AbortController();
    const voiding = sandboxAdapter.void(sandboxTestContext({ now, ...lost, signal: voidController.signal }), {
      tracking_number: sold!.tracking_number,
      shipment_identifier: null,
    });
    await vi.waitFor(() => expect(sold!.voided_at).toEqual(now));
    voidController.abort(new CarrierError("carrier_timeout", "Sandbox did not answer in time."));
    expect((await rejection(voiding)).code).toBe("carrier_timeout");
  });

  it("can fail lookups on request, and refuses to sell without books (a wiring bug, not a carrier answer)", async () => {
    const ctx = sandboxTestContext({ now, config: { fail_operations: ["lookup"] } });
    expect((await rejection(sandboxAdapter.findShipments(ctx, { reference: "R", sold_since: now }))).code).toBe(
      "carrier_unavailable",
    );
    await expect(sandboxAdapter.ship({ ...ctxAt(now), ledger: null }, testShipRequest())).rejects.toThrow(/ledger/);
  });
});

describe("track and trackMany", () => {
  it("follows a purchased label from pending to delivered", async () => {
    const { data } = await sandboxAdapter.ship(ctxAt(now), testShipRequest({ label_type: "ZPL" }));
    const first = await sandboxAdapter.track(ctxAt(now), data.tracking_number);
    expect(first.data).toMatchObject({ tracking_number: data.tracking_number, status: "pending" });
    expect(first.messages).toEqual([]);
    expect((await sandboxAdapter.track(ctxAt(later(55)), data.tracking_number)).data.status).toBe("delivered");
    // Default pace (360): delivered about 9 real minutes after purchase.
    const defaultPace = sandboxTestContext({ now: later(9.2) });
    expect((await sandboxAdapter.track(defaultPace, data.tracking_number)).data.status).toBe("delivered");
    expect((await sandboxAdapter.track(sandboxTestContext({ now: later(9) }), data.tracking_number)).data.status).toBe(
      "out_for_delivery",
    );
  });

  it("answers tracking_not_found for bad check digits, scenario 9 and numbers from the future", async () => {
    const good = makeTrackingNumber({ purchasedAt: now });
    const badCheck = good.slice(0, -1) + String((Number(good.at(-1)) + 1) % 10);
    for (const n of [
      badCheck,
      makeTrackingNumber({ purchasedAt: now, scenario: 9 }),
      makeTrackingNumber({ purchasedAt: later(10) }),
      "1Z999AA10123456784",
    ]) {
      const error = await rejection(sandboxAdapter.track(ctxAt(now), n));
      expect(error.messages[0]).toMatchObject({
        code: "tracking_not_found",
        message: `Tracking number ${n} was not found.`,
      });
    }
    // A little clock skew between servers is tolerated.
    expect((await sandboxAdapter.track(ctxAt(now), makeTrackingNumber({ purchasedAt: later(4) }))).data.status).toBe(
      "pending",
    );
  });

  it("tracks many numbers in one call, failing bad numbers individually", async () => {
    const a = makeTrackingNumber({ purchasedAt: now, scenario: 3 });
    const b = makeTrackingNumber({ purchasedAt: now, scenario: 9 });
    const { data, messages } = await sandboxAdapter.trackMany!(ctxAt(later(60)), [a, b, "nope"]);
    expect(messages).toEqual([]);
    expect(Object.keys(data)).toEqual([a, b, "nope"]);
    expect((data[a] as TrackingResult).status).toBe("out_for_delivery");
    expect(data[b]).toBeInstanceOf(CarrierError);
    expect((data[b] as CarrierError).code).toBe("tracking_not_found");
    expect((data.nope as CarrierError).code).toBe("tracking_not_found");
  });
});

describe("simulated carrier behaviour", () => {
  it("waits latency_ms before answering", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    let answered = false;
    const call = sandboxAdapter
      .rate(sandboxTestContext({ now, config: { latency_ms: 60 } }), testRateRequest())
      .finally(() => (answered = true));
    await vi.advanceTimersByTimeAsync(59);
    expect(answered).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(answered).toBe(true);
    expect((await call).data.length).toBeGreaterThan(0);
  });

  it("gives up the latency wait as soon as the signal aborts and leaves no timer behind", async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const call = sandboxAdapter.track(
      sandboxTestContext({ now, config: { latency_ms: 30_000 }, signal: controller.signal }),
      makeTrackingNumber({ purchasedAt: now }),
    );
    const settled = call.then(
      () => "resolved",
      (e: unknown) => e,
    );
    await vi.advanceTimersByTimeAsync(100);
    expect(vi.getTimerCount()).toBe(1);
    const reason = new Error("deadline passed");
    controller.abort(reason);
    expect(await settled).toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("rejects at once when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort(new Error("client went away"));
    await expect(
      sandboxAdapter.rate(sandboxTestContext({ now, signal: controller.signal }), testRateRequest()),
    ).rejects.toThrow("client went away");
  });

  it("answers every Nth call with carrier_rate_limited", async () => {
    const adapter = createSandboxAdapter();
    const ctx = sandboxTestContext({ now, config: { rate_limit_every: 3 } });
    const n = makeTrackingNumber({ purchasedAt: now });
    const outcomes: string[] = [];
    for (let i = 0; i < 7; i++) {
      outcomes.push(
        await adapter.track(ctx, n).then(
          () => "ok",
          (e: CarrierError) => e.code,
        ),
      );
    }
    expect(outcomes).toEqual(["ok", "ok", "carrier_rate_limited", "ok", "ok", "carrier_rate_limited", "ok"]);
    const limited = await rejection(adapter.track(ctx, n).then(() => adapter.track(ctx, n)));
    expect(limited.messages[0]).toEqual({
      code: "carrier_rate_limited",
      message: "Too many requests. Retry after 1 second.",
      level: "error",
      details: { retry_after_seconds: 1 },
    });
    // Another connection has its own count.
    await expect(adapter.track(sandboxTestContext({ now, config: { rate_limit_every: 3 } }), n)).resolves.toBeDefined();
  });

  it("fails the operations listed in fail_operations", async () => {
    const ctx = sandboxTestContext({ now, config: { fail_operations: ["track", "void"] } });
    const n = makeTrackingNumber({ purchasedAt: now });
    expect((await rejection(sandboxAdapter.track(ctx, n))).code).toBe("carrier_unavailable");
    expect((await rejection(sandboxAdapter.trackMany!(ctx, [n]))).code).toBe("carrier_unavailable");
    expect((await rejection(sandboxAdapter.void(ctx, { tracking_number: n, shipment_identifier: null }))).code).toBe(
      "carrier_unavailable",
    );
    await expect(sandboxAdapter.rate(ctx, testRateRequest())).resolves.toBeDefined();
  });

  it("fails a failure_rate fraction of calls, using the injected random source", async () => {
    const n = makeTrackingNumber({ purchasedAt: now });
    const ctx = sandboxTestContext({ now, config: { failure_rate: 0.5 } });
    expect((await rejection(createSandboxAdapter({ random: () => 0.49 }).track(ctx, n))).code).toBe(
      "carrier_unavailable",
    );
    await expect(createSandboxAdapter({ random: () => 0.5 }).track(ctx, n)).resolves.toBeDefined();
    expect(
      (await rejection(sandboxAdapter.track(sandboxTestContext({ now, config: { failure_rate: 1 } }), n))).code,
    ).toBe("carrier_unavailable");
  });

  it("fails with carrier_auth_failed for the expired_key credentials", async () => {
    const ctx = sandboxTestContext({ now, credentials: { api_key: "expired_key" } });
    const error = await rejection(sandboxAdapter.rate(ctx, testRateRequest()));
    expect(error.messages[0]).toMatchObject({
      code: "carrier_auth_failed",
      message: "Authentication failed: the Sandbox API key has expired.",
    });
    // Nothing was cached: the next call asks again (and fails again).
    expect((await rejection(sandboxAdapter.track(ctx, makeTrackingNumber({ purchasedAt: now })))).code).toBe(
      "carrier_auth_failed",
    );
  });

  it("fetches one token per credentials and reuses it from the cache", async () => {
    const tokens = new TokenCache();
    const get = tokens.get.bind(tokens);
    const keys: string[] = [];
    let fetches = 0;
    vi.spyOn(tokens, "get").mockImplementation((key, fetch) => {
      keys.push(key);
      return get(key, async () => {
        fetches++;
        const token = await fetch();
        expect(token.expiresInSeconds).toBe(3600);
        return token;
      });
    });
    const anonymous = sandboxTestContext({ now, tokens });
    await sandboxAdapter.rate(anonymous, testRateRequest());
    await sandboxAdapter.rate(anonymous, testRateRequest());
    expect(fetches).toBe(1);
    const keyed = sandboxTestContext({ now, tokens, credentials: { api_key: "my_sandbox_key" } });
    await sandboxAdapter.rate(keyed, testRateRequest());
    expect(fetches).toBe(2);
    expect(keys[0]).toBe("sandbox:anonymous");
    expect(keys[2]).toMatch(/^sandbox:[0-9a-f]{32}$/);
    expect(keys.join()).not.toContain("my_sandbox_key");
  });

  it("reports a config that was never validated as SBX_INVALID_CONFIG, and ignores the layer's common keys", async () => {
    const broken = await rejection(
      sandboxAdapter.rate(sandboxTestContext({ now, config: { pace: "fast" } }), testRateRequest()),
    );
    expect(broken.code).toBe("SBX_INVALID_CONFIG");
    await expect(
      sandboxAdapter.rate(sandboxTestContext({ now, config: { deadline_ms: 5000 } }), testRateRequest()),
    ).resolves.toBeDefined();
  });
});

describe("sandbox label text", () => {
  const shipmentKey = "shp_" + "7".repeat(32);

  it("without a client reference (our shipment id sent instead) prints no reference and no piece of the id", async () => {
    const result = await sandboxAdapter.ship(
      ctxAt(now),
      testShipRequest({ reference: shipmentKey, shipment_key: shipmentKey }),
    );
    const lines = await pdfLines(result.data.label.bytes);
    expect(lines).not.toContain("REF");
    expect(lines.some((l) => l.includes("shp_") || l.includes("7777"))).toBe(false);
    expect(result.messages).toEqual([]);
  });

  it("warns, naming the field, when text is cut or a ZPL label cannot print its characters", async () => {
    const recipient = testAddress({ person_name: "山田太郎", address_line1: "Long Street ".repeat(10) });
    const result = await sandboxAdapter.ship(
      ctxAt(now),
      testShipRequest({ recipient, label_type: "PNG", reference: "R".repeat(100) }),
    );
    const fields = result.messages.map((m) => [m.code, m.details?.field]);
    expect(fields).toEqual(
      expect.arrayContaining([
        ["SBX_TEXT_CUT", "recipient.address_line1"],
        ["SBX_TEXT_CUT", "reference"],
      ]),
    );
    expect(result.messages.every((m) => m.level === "warning")).toBe(true);
    // A PNG draws the name with the Noto fonts; a ZPL printer's built-in font cannot.
    expect(fields.some(([code]) => code === "SBX_TEXT_NOT_PRINTABLE")).toBe(false);
    const zpl = await sandboxAdapter.ship(
      ctxAt(now),
      testShipRequest({ recipient: testAddress({ person_name: "山田太郎" }), label_type: "ZPL" }),
    );
    expect(zpl.messages.map((m) => [m.code, m.details?.field])).toEqual([
      ["SBX_TEXT_NOT_PRINTABLE", "recipient.person_name"],
    ]);
    // The same name on a PDF label prints as given: no warning about it.
    const pdf = await sandboxAdapter.ship(
      ctxAt(now),
      testShipRequest({ recipient: testAddress({ person_name: "山田太郎" }) }),
    );
    expect(pdf.messages).toEqual([]);
    expect(await pdfLines(pdf.data.label.bytes)).toContain("山田太郎");
  });

  it("does not warn about a ZPL name typed with combining accents: font 0 prints it once composed", async () => {
    // "Zoë" as e + U+0308 (NFD): the same Latin-1 letters as "Zoë", which the ZPL label prints without a warning.
    const result = await sandboxAdapter.ship(
      ctxAt(now),
      testShipRequest({ recipient: testAddress({ person_name: "Zoe\u0308 Stro\u0308m" }), label_type: "ZPL" }),
    );
    expect(result.messages).toEqual([]);
    expect(new TextDecoder().decode(result.data.label.bytes)).toContain("^FDZo\u00EB Str\u00F6m^FS");
  });

  it("warns, naming the field, when a PDF or PNG label prints a field's characters as ? (Arabic, Hebrew, Thai)", async () => {
    // None of the embedded Noto fonts has Arabic, Hebrew or Thai: the label prints "???? ???" where the name was.
    for (const label_type of ["PDF", "PNG"] as const) {
      const result = await sandboxAdapter.ship(
        ctxAt(now),
        testShipRequest({
          recipient: testAddress({ person_name: "محمد علي", company_name: "שלום בע״מ", address_line2: "ไทย" }),
          label_type,
        }),
      );
      expect(result.messages.map((m) => [m.code, m.details?.field])).toEqual([
        ["SBX_TEXT_NOT_PRINTABLE", "recipient.person_name"],
        ["SBX_TEXT_NOT_PRINTABLE", "recipient.company_name"],
        ["SBX_TEXT_NOT_PRINTABLE", "recipient.address_line2"],
      ]);
    }
  });

  it("warns about a Devanagari name on a PDF label: drawn a glyph per character, it prints unshaped", async () => {
    // Noto Sans has the Devanagari letters, but the label draws one glyph per character (fonts.ts), so the i-matra of
    // "हिन्दी" stands after its consonant instead of before it and the virama of न्द shows: not the name as written.
    const result = await sandboxAdapter.ship(
      ctxAt(now),
      testShipRequest({ recipient: testAddress({ person_name: "हिन्दी नाम" }) }),
    );
    expect(result.messages.map((m) => [m.code, m.details?.field])).toEqual([
      ["SBX_TEXT_NOT_PRINTABLE", "recipient.person_name"],
    ]);
  });

  it("warns SBX_TEXT_CUT whenever the PDF label cuts a line, a 60-character Chinese street included", async () => {
    // Ideographs are a full em wide: wider than the bound the warnings measure with, so the PDF cuts this street
    // while the warning's layout thinks it fits.
    const street = "北京市朝阳区建国门外大街一号国贸大厦".repeat(4).slice(0, 60);
    const result = await sandboxAdapter.ship(
      ctxAt(now),
      testShipRequest({ recipient: testAddress({ address_line1: street }) }),
    );
    const lines = await pdfLines(result.data.label.bytes);
    const cut = lines.some((l) => l.endsWith("..."));
    const warned = result.messages.some(
      (m) => m.code === "SBX_TEXT_CUT" && m.details?.field === "recipient.address_line1",
    );
    expect(cut || lines.includes(street)).toBe(true);
    expect(warned).toBe(cut);
  });
});
