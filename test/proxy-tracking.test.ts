import { afterEach, describe, expect, it, vi } from "vitest";
import { GET as track } from "@/app/v1/proxy/tracking/[carrier_name]/[tracking_number]/route";
import { POST as rates } from "@/app/v1/proxy/rates/route";
import { POST as shipping } from "@/app/v1/proxy/shipping/route";
import { POST as createTracker } from "@/app/v1/trackers/[id]/[tracking_number]/route";
import { sandboxAdapter } from "@/lib/carriers/sandbox/adapter";
import { makeTrackingNumber } from "@/lib/carriers/sandbox/tracking-number";
import { TrackingResponse } from "@/lib/schemas/proxy";
import { call, makeOrg } from "./helpers";
import { addSandbox, rateRequest } from "./factories";

afterEach(() => vi.restoreAllMocks());

const days = (n: number) => new Date(Date.now() - n * 86_400_000);
const trackingOf = (key: string, carrier_name: string, tracking_number: string, query?: Record<string, string>) =>
  call(track, "GET", `/v1/proxy/tracking/${carrier_name}/${tracking_number}`, {
    key,
    params: { carrier_name, tracking_number },
    query,
  });

describe("GET /v1/proxy/tracking/{carrier_name}/{tracking_number}", () => {
  it("tracks a label just bought: pending, one event, nothing stored", async () => {
    const { key } = await makeOrg();
    const offered = (await call(rates, "POST", "/v1/proxy/rates", { key, body: rateRequest() })).body.rates;
    const label = await call(shipping, "POST", "/v1/proxy/shipping", {
      key,
      body: { ...rateRequest(), rates: offered, selected_rate_id: offered[0].id },
    });
    const res = await trackingOf(key, "sandbox", label.body.tracking_number);
    expect(res.status).toBe(200);
    TrackingResponse.parse(res.body);
    expect(res.body.messages).toEqual([]);
    expect(res.body.tracking).toMatchObject({
      id: expect.stringMatching(/^trk_[0-9a-f]{32}$/),
      carrier_name: "sandbox",
      carrier_id: "sandbox",
      tracking_number: label.body.tracking_number,
      status: "pending",
      delivered: false,
      test_mode: true,
    });
    expect(res.body.tracking.events[0]).toMatchObject({ status: "pending", code: expect.any(String) });
  });

  it("shows a finished journey newest first with delivered = true", async () => {
    const { key } = await makeOrg();
    const number = makeTrackingNumber({ purchasedAt: days(10), scenario: 4 });
    const res = await trackingOf(key, "sandbox", number);
    expect(res.status).toBe(200);
    const t = res.body.tracking;
    expect(t.status).toBe("delivered");
    expect(t.delivered).toBe(true);
    expect(t.events.length).toBeGreaterThanOrEqual(6);
    expect(t.events[0].status).toBe("delivered");
    expect(t.events.at(-1).status).toBe("pending");
    const stamps = t.events.map((e: { date: string; time: string }) => `${e.date} ${e.time}`);
    expect(stamps).toEqual([...stamps].sort().reverse());
    for (const e of t.events) {
      expect(e.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(e.time).toMatch(/^\d{2}:\d{2}$/);
      expect(e.location).not.toBe("");
    }
  });

  it("normalizes each scenario's final status", async () => {
    const { key } = await makeOrg();
    const expected: Record<number, string> = {
      1: "pending",
      2: "in_transit",
      3: "out_for_delivery",
      5: "return_to_sender",
      6: "ready_for_pickup",
    };
    for (const [scenario, status] of Object.entries(expected)) {
      const res = await trackingOf(
        key,
        "sandbox",
        makeTrackingNumber({ purchasedAt: days(20), scenario: Number(scenario) }),
      );
      expect(res.body.tracking.status, `scenario ${scenario}`).toBe(status);
      expect(res.body.tracking.delivered).toBe(false);
    }
    // A weather delay holds the parcel a simulated day, then it is delivered; the delay stays in the history.
    const weather = await trackingOf(key, "sandbox", makeTrackingNumber({ purchasedAt: days(20), scenario: 8 }));
    expect(weather.body.tracking.status).toBe("delivered");
    expect(weather.body.tracking.events.some((e: { status: string }) => e.status === "delivery_delayed")).toBe(true);
  });

  it("answers 404 with messages for a number the carrier does not know, and for a bad check digit", async () => {
    const { key } = await makeOrg();
    const good = makeTrackingNumber({ purchasedAt: days(1) });
    const broken = good.slice(0, -1) + String((Number(good.at(-1)) + 1) % 10);
    for (const number of [broken, makeTrackingNumber({ purchasedAt: days(1), scenario: 9 })]) {
      const res = await trackingOf(key, "sandbox", number);
      expect(res.status).toBe(404);
      expect(res.body.tracking).toBeNull();
      expect(res.body.messages).toEqual([
        {
          carrier_name: "sandbox",
          carrier_id: "sandbox",
          code: "tracking_not_found",
          message: expect.any(String),
          level: "error",
          details: expect.any(Object),
        },
      ]);
    }
  });

  it("answers 404 carrier_not_found for an unknown carrier or no active connection", async () => {
    const { key } = await makeOrg();
    const number = makeTrackingNumber({ purchasedAt: days(1) });
    const unknown = await trackingOf(key, "pigeon", number);
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0].code).toBe("carrier_not_found");
    const narrowed = await trackingOf(key, "sandbox", number, { carrier_id: "nope" });
    expect(narrowed.status).toBe(404);
    expect(narrowed.body.errors[0].code).toBe("carrier_not_found");
  });

  it("uses the connection named by ?carrier_id= and answers 424 when the carrier fails", async () => {
    const { key } = await makeOrg();
    await addSandbox(key, "down", { fail_operations: ["track"] });
    const number = makeTrackingNumber({ purchasedAt: days(1) });
    const res = await trackingOf(key, "sandbox", number, { carrier_id: "down" });
    expect(res.status).toBe(424);
    expect(res.body.messages[0]).toMatchObject({ carrier_id: "down", code: "carrier_unavailable" });
  });

  it("validates the tracking number's shape, including a literal percent sign", async () => {
    const { key } = await makeOrg();
    for (const bad of ["a!", "%", "1Z%ZZ"]) {
      const res = await trackingOf(key, "sandbox", bad);
      expect(res.status, bad).toBe(400);
      expect(res.body.errors[0].field).toBe("tracking_number");
    }
  });

  it("does not let ?carrier_id= reach another organization's connection", async () => {
    const owner = await makeOrg();
    const other = await makeOrg();
    const theirs = await addSandbox(owner.key, "theirs");
    const number = makeTrackingNumber({ purchasedAt: days(1) });
    for (const carrier_id of ["theirs", theirs.id]) {
      const res = await trackingOf(other.key, "sandbox", number, { carrier_id });
      expect(res.status).toBe(404);
      expect(res.body.errors[0].code).toBe("carrier_not_found");
    }
  });

  it("answers the same status as a tracker created from the same carrier answer, also when the carrier says unknown", async () => {
    const { key } = await makeOrg();
    const number = makeTrackingNumber({ purchasedAt: days(3), scenario: 2 });
    // A carrier whose overall status it cannot name (UPS's currentStatus of a type we do not map) beside events it can.
    const original = sandboxAdapter.track.bind(sandboxAdapter);
    vi.spyOn(sandboxAdapter, "track").mockImplementation(async (ctx, n) => {
      const answer = await original(ctx, n);
      return { ...answer, data: { ...answer.data, status: "unknown" } };
    });
    const proxy = await trackingOf(key, "sandbox", number);
    expect(proxy.status).toBe(200);
    const newest = proxy.body.tracking.events[0].status;
    expect(newest).not.toBe("unknown");
    const managed = await call(createTracker, "POST", `/v1/trackers/sandbox/${number}`, {
      key,
      params: { id: "sandbox", tracking_number: number },
    });
    expect(managed.status).toBe(201);
    expect(managed.body.status).toBe(newest);
    expect(proxy.body.tracking).toMatchObject({ status: managed.body.status, delivered: managed.body.delivered });
  });
});
