import { describe, expect, it, vi } from "vitest";
import { log } from "@/lib/log";
import { POST as rates } from "@/app/v1/proxy/rates/route";
import { PATCH as patchConnection } from "@/app/v1/connections/[id]/route";
import { RatesResponse } from "@/lib/schemas/proxy";
import { Rate } from "@/lib/schemas/rate";
import { call, makeOrg } from "./helpers";
import { addSandbox, createShipmentFor, rateRequest } from "./factories";

describe("POST /v1/proxy/rates", () => {
  it("returns every Rate field from the default sandbox connection, cheapest first", async () => {
    const { key } = await makeOrg();
    const res = await call(rates, "POST", "/v1/proxy/rates", { key, body: rateRequest() });
    expect(res.status).toBe(200);
    RatesResponse.parse(res.body);
    expect(res.body.messages).toEqual([]);
    expect(res.body.rates.length).toBeGreaterThanOrEqual(3);
    for (const rate of res.body.rates) {
      expect(Object.keys(rate).sort()).toEqual(Object.keys(Rate.shape).sort());
      expect(rate.id).toMatch(/^rat_[0-9a-f]{32}$/);
      expect(rate.carrier_ref).toMatch(/^car_[0-9a-f]{32}$/);
      expect(rate).toMatchObject({ carrier_name: "sandbox", carrier_id: "sandbox", currency: "USD", test_mode: true });
      expect(rate.meta).toMatchObject({
        service_name: expect.any(String),
        rate_provider: "sandbox",
        carrier_connection_id: rate.carrier_ref,
      });
      expect(Number.isInteger(rate.transit_days)).toBe(true);
      // Residential recipient: the surcharge is itemised.
      expect(rate.extra_charges.map((c: { name: string }) => c.name.toLowerCase()).join(" ")).toMatch(/residential/);
    }
    const totals = res.body.rates.map((r: { total_charge: number }) => r.total_charge);
    expect(totals).toEqual([...totals].sort((a, b) => a - b));
  });

  it("sorts the answers of several connections together, cheapest first", async () => {
    const { key } = await makeOrg();
    await addSandbox(key, "no-fuel", { fuel_surcharge_percent: 0 });
    await addSandbox(key, "dear-fuel", { fuel_surcharge_percent: 100 });
    const res = await call(rates, "POST", "/v1/proxy/rates", {
      key,
      body: rateRequest({ carrier_ids: ["dear-fuel", "no-fuel"] }),
    });
    expect(res.status).toBe(200);
    const quoted = res.body.rates as { total_charge: number; carrier_id: string }[];
    // Both connections' rates are in the answer, interleaved by price rather than one carrier after the other.
    const order = quoted.map((r) => r.carrier_id);
    expect(new Set(order)).toEqual(new Set(["dear-fuel", "no-fuel"]));
    expect(order).not.toEqual([...order].sort());
    const totals = quoted.map((r) => r.total_charge);
    expect(totals).toEqual([...totals].sort((a, b) => a - b));
  });

  it("puts the faster of two rates of the same price first", async () => {
    const { key } = await makeOrg();
    type Quoted = { carrier_id: string; service: string; base_charge: number; total_charge: number };
    const quote = async (carrier_ids: string[]) => {
      const body = rateRequest({ carrier_ids, services: ["SBX_GROUND", "SBX_2DAY"] });
      return (await call(rates, "POST", "/v1/proxy/rates", { key, body })).body.rates as Quoted[];
    };
    const base = Object.fromEntries((await quote(["sandbox"])).map((r) => [r.service, r.base_charge]));
    // A fuel surcharge that lifts Ground (5 days) to exactly the price of 2-Day (2 days) without one. The dearer
    // connection is the older one, so its Ground rate comes before the other's 2-Day rate until they are sorted.
    const percent = ((base.SBX_2DAY! - base.SBX_GROUND!) / base.SBX_GROUND!) * 100;
    await addSandbox(key, "dear-fuel", { fuel_surcharge_percent: percent });
    await addSandbox(key, "no-fuel", { fuel_surcharge_percent: 0 });
    const quoted = await quote(["dear-fuel", "no-fuel"]);
    expect(quoted.map((r) => [r.carrier_id, r.service])).toEqual([
      ["no-fuel", "SBX_GROUND"],
      ["no-fuel", "SBX_2DAY"],
      ["dear-fuel", "SBX_GROUND"],
      ["dear-fuel", "SBX_2DAY"],
    ]);
    expect(quoted[1]!.total_charge).toBe(quoted[2]!.total_charge);
  });

  it("a shipment is in test mode only when every connection that rated it is", async () => {
    const { key } = await makeOrg();
    await addSandbox(key, "live-account", {}, { test_mode: false });
    await addSandbox(key, "test-account");
    expect((await createShipmentFor(key, { carrier_ids: ["test-account"] })).test_mode).toBe(true);
    expect((await createShipmentFor(key, { carrier_ids: ["test-account", "live-account"] })).test_mode).toBe(false);
    expect((await createShipmentFor(key, { carrier_ids: ["live-account"] })).test_mode).toBe(false);
  });

  it("reports every missing required field with its path (rating needs a country and a postal code)", async () => {
    const { key } = await makeOrg();
    const empty = await call(rates, "POST", "/v1/proxy/rates", { key, body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.errors.map((e: { field: string }) => e.field)).toEqual(["shipper", "recipient", "parcels"]);

    const partial = await call(rates, "POST", "/v1/proxy/rates", {
      key,
      body: { shipper: {}, recipient: { ...rateRequest().recipient, state_code: null }, parcels: [{}] },
    });
    expect(partial.status).toBe(400);
    expect(partial.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(
      ["shipper.postal_code", "shipper.country_code", "parcels[0].weight", "parcels[0].weight_unit"].sort(),
    );
    const none = await call(rates, "POST", "/v1/proxy/rates", { key, body: rateRequest({ parcels: [] }) });
    expect(none.body.errors).toEqual([
      { code: "validation_error", field: "parcels", message: "must have at least 1 item" },
    ]);
  });

  it("selects connections by carrier_id or car_ id and rejects ids that match nothing", async () => {
    const { key } = await makeOrg();
    const second = await addSandbox(key, "sbx-b");
    const byFriendly = await call(rates, "POST", "/v1/proxy/rates", {
      key,
      body: rateRequest({ carrier_ids: ["sbx-b"] }),
    });
    expect(byFriendly.status).toBe(200);
    expect(new Set(byFriendly.body.rates.map((r: { carrier_id: string }) => r.carrier_id))).toEqual(new Set(["sbx-b"]));
    const byId = await call(rates, "POST", "/v1/proxy/rates", { key, body: rateRequest({ carrier_ids: [second.id] }) });
    expect(byId.body.rates.every((r: { carrier_ref: string }) => r.carrier_ref === second.id)).toBe(true);
    const all = await call(rates, "POST", "/v1/proxy/rates", { key, body: rateRequest() });
    expect(new Set(all.body.rates.map((r: { carrier_id: string }) => r.carrier_id))).toEqual(
      new Set(["sandbox", "sbx-b"]),
    );

    const unknown = await call(rates, "POST", "/v1/proxy/rates", {
      key,
      body: rateRequest({ carrier_ids: ["sbx-b", "ghost"] }),
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([
      { code: "validation_error", field: "carrier_ids[1]", message: expect.stringContaining("ghost") },
    ]);

    await call(patchConnection, "PATCH", "", { key, params: { id: second.id }, body: { active: false } });
    const inactive = await call(rates, "POST", "/v1/proxy/rates", {
      key,
      body: rateRequest({ carrier_ids: ["sbx-b"] }),
    });
    expect(inactive.status).toBe(404);
    expect(inactive.body.errors[0].code).toBe("carrier_not_found");
  });

  it("never uses another organization's connection", async () => {
    const a = await makeOrg();
    const b = await makeOrg();
    const mine = await addSandbox(a.key, "private");
    const res = await call(rates, "POST", "/v1/proxy/rates", {
      key: b.key,
      body: rateRequest({ carrier_ids: [mine.id] }),
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe("carrier_ids[0]");
  });

  it("asks every connection at once and answers 207 with carrier_timeout for those past their deadline", async () => {
    const { key } = await makeOrg();
    await addSandbox(key, "slow", { latency_ms: 5_000, deadline_ms: 200 });
    await addSandbox(key, "slower", { latency_ms: 5_000, deadline_ms: 200 });
    // Time is an input: the carriers' latency and deadlines run on fake timers. Each sandbox call sets its latency
    // timer before its first await, so when the first one is set, a parallel fan-out has set them all; one after
    // another would have set one and wait for its deadline before asking the next.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const fakeSetTimeout = globalThis.setTimeout;
    let latencyTimers = 0;
    let firstAsked!: () => void;
    const asked = new Promise<void>((resolve) => (firstAsked = resolve));
    vi.spyOn(globalThis, "setTimeout").mockImplementation(((fn: () => void, ms?: number) => {
      if (ms === 5_000 && ++latencyTimers === 1) firstAsked();
      return fakeSetTimeout(fn, ms);
    }) as typeof setTimeout);
    const pending = call(rates, "POST", "/v1/proxy/rates", { key, body: rateRequest() });
    await asked; // resumes after the synchronous part of the fan-out that set the first latency timer
    expect(latencyTimers).toBe(2);
    await vi.advanceTimersByTimeAsync(200); // both deadlines at once: the slow carriers did not hold the request
    const res = await pending;
    vi.useRealTimers();
    expect(res.status).toBe(207);
    expect(res.body.rates.length).toBeGreaterThan(0);
    expect(res.body.rates.every((r: { carrier_id: string }) => r.carrier_id === "sandbox")).toBe(true);
    const timedOut = (carrier_id: string) => ({
      carrier_name: "sandbox",
      carrier_id,
      code: "carrier_timeout",
      message: expect.any(String),
      level: "error",
      details: {},
    });
    expect(res.body.messages).toHaveLength(2);
    expect(res.body.messages).toEqual(expect.arrayContaining([timedOut("slow"), timedOut("slower")]));
  });

  it("answers 207 when one carrier fails and 424 when all of them fail", async () => {
    const { key } = await makeOrg();
    await addSandbox(key, "broken", { fail_operations: ["rates"] });
    const partial = await call(rates, "POST", "/v1/proxy/rates", { key, body: rateRequest() });
    expect(partial.status).toBe(207);
    expect(partial.body.messages[0]).toMatchObject({
      carrier_id: "broken",
      code: "carrier_unavailable",
      level: "error",
    });

    const all = await call(rates, "POST", "/v1/proxy/rates", { key, body: rateRequest({ carrier_ids: ["broken"] }) });
    expect(all.status).toBe(424);
    expect(all.body.rates).toEqual([]);
    expect(all.body.messages).toHaveLength(1);
    expect(all.body).not.toHaveProperty("errors");
  });

  it("passes the carrier's own refusal through as messages (invalid postal code, overweight)", async () => {
    const { key } = await makeOrg();
    const bad = rateRequest({ recipient: { ...rateRequest().recipient, postal_code: "00000" } });
    const res = await call(rates, "POST", "/v1/proxy/rates", { key, body: bad });
    expect(res.status).toBe(424);
    expect(res.body.messages[0]).toMatchObject({ carrier_name: "sandbox", carrier_id: "sandbox", level: "error" });
    expect(res.body.messages[0].message).toMatch(/00000/);

    const heavy = await call(rates, "POST", "/v1/proxy/rates", {
      key,
      body: rateRequest({ parcels: [{ weight: 80, weight_unit: "KG" }] }),
    });
    expect(heavy.status).toBe(424);
    expect(heavy.body.messages[0].message).toMatch(/70/);
  });

  it("logs one line per carrier operation with ids, outcome and codes, never the credentials", async () => {
    const { key } = await makeOrg();
    await addSandbox(key, "secretive", {}, { credentials: { api_key: "do-not-log-this-key" } });
    const info = vi.spyOn(log(), "info");
    await call(rates, "POST", "/v1/proxy/rates", { key, body: rateRequest({ carrier_ids: ["secretive"] }) });
    const lines = info.mock.calls
      .map((c) => c[0] as unknown as Record<string, unknown>)
      .filter((l) => l.msg === "carrier_operation");
    expect(lines).toEqual([
      expect.objectContaining({
        carrier_name: "sandbox",
        carrier_id: "secretive",
        operation: "rates",
        outcome: "ok",
        codes: [],
      }),
    ]);
    expect(JSON.stringify(info.mock.calls)).not.toContain("do-not-log-this-key");
    info.mockRestore();
  });

  it("fails one connection with carrier_auth_failed when its credentials have expired", async () => {
    const { key } = await makeOrg();
    await addSandbox(key, "expired", {}, { credentials: { api_key: "expired_key" } });
    const res = await call(rates, "POST", "/v1/proxy/rates", { key, body: rateRequest() });
    expect(res.status).toBe(207);
    expect(res.body.messages[0]).toMatchObject({ carrier_id: "expired", code: "carrier_auth_failed" });
  });
});
