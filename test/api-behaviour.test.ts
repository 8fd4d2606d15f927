import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { GET as list, POST as create } from "@/app/v1/connections/route";
import { withApi } from "@/lib/api/with-api";
import { rateLimiter } from "@/lib/api/rate-limit";
import { resetEnvCache } from "@/lib/env";
import { AddressInput } from "@/lib/schemas/address";
import { ParcelInput } from "@/lib/schemas/parcel";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { idempotencyKeys } from "@/lib/db/schema";
import { sweepExpiredIdempotencyKeys } from "@/lib/api/idempotency";
import { call, makeOrg } from "./helpers";

const conn = (carrier_id: string) => ({ carrier_name: "sandbox", carrier_id });

// Routes made up for these tests: withApi wants every operation declared.
const doc = { id: "testRoute", summary: "A route made up for a test", responses: {} };

describe("answers", () => {
  it("are never stored by a cache: every JSON answer of an operation says no-store, errors too", async () => {
    const { key } = await makeOrg();
    for (const opts of [{ key }, {}]) {
      const res = await call(list, "GET", "/v1/connections", opts);
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
  });
});

describe("request parsing", () => {
  it("answers 400 invalid_json for a body that is not JSON", async () => {
    const { key } = await makeOrg();
    const res = await call(create, "POST", "/v1/connections", {
      key,
      rawBody: "{nope",
      headers: { "Content-Type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toEqual({ code: "invalid_json", message: expect.any(String), field: null });
  });

  it("answers 415 for a body that is not declared as JSON", async () => {
    const { key } = await makeOrg();
    const res = await call(create, "POST", "/v1/connections", {
      key,
      rawBody: JSON.stringify(conn("x")),
      headers: { "Content-Type": "text/plain" },
    });
    expect(res.status).toBe(415);
    expect(res.body.errors[0].code).toBe("unsupported_media_type");
  });

  it("takes application/json and +json types only, parameters allowed", async () => {
    const { key } = await makeOrg();
    const send = (type: string, id: string) =>
      call(create, "POST", "/v1/connections", {
        key,
        rawBody: JSON.stringify(conn(id)),
        headers: { "Content-Type": type },
      });
    for (const type of ["application/json-seq", "application/jsonx", "application/json5", "text/json", "json"]) {
      const res = await send(type, "refused");
      expect(res.status, type).toBe(415);
      expect(res.body).toEqual({
        errors: [{ code: "unsupported_media_type", message: expect.any(String), field: null }],
      });
    }
    const accepted = [
      "application/json",
      "APPLICATION/JSON; charset=utf-8",
      "application/vnd.api+json",
      " application/json ;charset=UTF-8",
    ];
    for (const [i, type] of accepted.entries()) expect((await send(type, `ok-${i}`)).status, type).toBe(201);
  });

  it("answers 413 for a body over 1 MiB, with or without Content-Length", async () => {
    const { key } = await makeOrg();
    const big = JSON.stringify({ ...conn("big"), config: { pad: "x".repeat(1024 * 1024) } });
    const res = await call(create, "POST", "/v1/connections", {
      key,
      rawBody: big,
      headers: { "Content-Type": "application/json" },
    });
    expect(res.status).toBe(413);
    expect(res.body.errors[0].code).toBe("payload_too_large");

    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < 20; i++) c.enqueue(new TextEncoder().encode("x".repeat(64 * 1024)));
        c.close();
      },
    });
    const req = new Request("http://localhost/v1/connections", {
      method: "POST",
      headers: { Authorization: `Token ${key}`, "Content-Type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect((await create(req, { params: Promise.resolve({}) })).status).toBe(413);
    expect((await call(list, "GET", "/v1/connections", { key })).body.count).toBe(1);
  });

  it("reports one validation item per problem with nested field paths", async () => {
    const { key } = await makeOrg();
    const route = withApi(
      { doc, route: "/test", body: z.object({ shipper: AddressInput, parcels: z.array(ParcelInput).min(1) }) },
      async () => ({ body: { ok: true } }),
    );
    const res = await call(route, "POST", "/test", {
      key,
      body: {
        shipper: { city: "Austin", country_code: "USA", postal_code: "78701", address_line1: "1 Main St" },
        parcels: [
          { weight: 1, weight_unit: "KG" },
          { weight: 0, weight_unit: "STONE", width: 10 },
        ],
      },
    });
    expect(res.status).toBe(400);
    const items = Object.fromEntries(
      res.body.errors.map((e: { field: string; message: string }) => [e.field, e.message]),
    );
    expect(items).toEqual({
      "shipper.country_code": "must be a two-letter country code",
      "parcels[1].weight": "must be greater than 0",
      "parcels[1].weight_unit": "must be one of: KG, LB, OZ, G",
      "parcels[1].height": "is required when any dimension is given",
      "parcels[1].length": "is required when any dimension is given",
      "parcels[1].dimension_unit": "is required when dimensions are given",
    });
    const missing = await call(route, "POST", "/test", { key, body: {} });
    expect(missing.body.errors).toEqual([
      { code: "validation_error", field: "shipper", message: "is required" },
      { code: "validation_error", field: "parcels", message: "is required" },
    ]);
  });

  it("never shows internals in a 500", async () => {
    const { key } = await makeOrg();
    const route = withApi({ doc, route: "/boom" }, async () => {
      throw new Error("relation secret_table at /srv/app/lib/x.ts:12 exploded");
    });
    const res = await call(route, "GET", "/boom", { key });
    expect(res.status).toBe(500);
    expect(res.body.errors[0].code).toBe("internal_error");
    expect(JSON.stringify(res.body)).not.toMatch(/secret_table|\/srv|exploded/);
    expect(res.body.errors[0].message).toContain(res.headers.get("x-request-id"));
  });
});

describe("rate limit", () => {
  afterEach(() => {
    delete process.env.RATE_LIMIT_PER_MINUTE;
    resetEnvCache();
  });

  it("answers 429 with Retry-After once a key spends its budget, without touching other keys", async () => {
    process.env.RATE_LIMIT_PER_MINUTE = "3";
    resetEnvCache();
    rateLimiter.reset();
    const a = await makeOrg();
    const b = await makeOrg();
    for (let i = 0; i < 3; i++) expect((await call(list, "GET", "/v1/connections", { key: a.key })).status).toBe(200);
    const limited = await call(list, "GET", "/v1/connections", { key: a.key });
    expect(limited.status).toBe(429);
    expect(limited.body.errors[0].code).toBe("rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(limited.headers.get("x-request-id")).toMatch(/^req_/);
    expect((await call(list, "GET", "/v1/connections", { key: b.key })).status).toBe(200);
  });
});

describe("Idempotency-Key", () => {
  afterEach(() => vi.useRealTimers());

  it("replays the first response without running the request again", async () => {
    const { key } = await makeOrg();
    const headers = { "Idempotency-Key": "create-1" };
    const first = await call(create, "POST", "/v1/connections", { key, headers, body: conn("idem") });
    const again = await call(create, "POST", "/v1/connections", { key, headers, body: conn("idem") });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    expect((await call(list, "GET", "/v1/connections", { key })).body.count).toBe(2);
  });

  it("replays client errors too, and answers 422 for the same key with another body", async () => {
    const { key } = await makeOrg();
    const headers = { "Idempotency-Key": "k2" };
    const bad = await call(create, "POST", "/v1/connections", {
      key,
      headers,
      body: { carrier_name: "sandbox", carrier_id: "sandbox" },
    });
    expect(bad.status).toBe(400);
    const replay = await call(create, "POST", "/v1/connections", {
      key,
      headers,
      body: { carrier_name: "sandbox", carrier_id: "sandbox" },
    });
    expect(replay.status).toBe(400);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    const reused = await call(create, "POST", "/v1/connections", { key, headers, body: conn("other") });
    expect(reused.status).toBe(422);
    expect(reused.body.errors[0].code).toBe("idempotency_key_reused");
    expect((await call(list, "GET", "/v1/connections", { key })).body.count).toBe(1);
  });

  it("scopes keys per organization", async () => {
    const a = await makeOrg();
    const b = await makeOrg();
    const headers = { "Idempotency-Key": "shared" };
    expect((await call(create, "POST", "/v1/connections", { key: a.key, headers, body: conn("x") })).status).toBe(201);
    const other = await call(create, "POST", "/v1/connections", { key: b.key, headers, body: conn("y") });
    expect(other.status).toBe(201);
    expect(other.headers.get("idempotent-replayed")).toBeNull();
  });

  it("lets exactly one of two concurrent requests run; the other gets 409", async () => {
    const { key } = await makeOrg();
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let running!: () => void;
    const started = new Promise<void>((r) => (running = r));
    const route = withApi({ doc, route: "/slow", body: z.object({ n: z.number() }) }, async () => {
      runs++;
      running();
      await gate;
      return { status: 201, body: { runs } };
    });
    const headers = { "Idempotency-Key": "race" };
    const firstP = call(route, "POST", "/slow", { key, headers, body: { n: 1 } });
    await started; // the first request holds the key and is inside its handler
    const second = await call(route, "POST", "/slow", { key, headers, body: { n: 1 } });
    expect(second.status).toBe(409);
    expect(second.body.errors[0].code).toBe("idempotency_in_progress");
    release();
    const first = await firstP;
    expect(first.status).toBe(201);
    const third = await call(route, "POST", "/slow", { key, headers, body: { n: 1 } });
    expect(third.status).toBe(201);
    expect(third.headers.get("idempotent-replayed")).toBe("true");
    expect(runs).toBe(1);
  });

  it("frees the key after a server error so a retry runs", async () => {
    const { key } = await makeOrg();
    let calls = 0;
    const route = withApi({ doc, route: "/flaky", body: z.object({}) }, async () => {
      calls++;
      if (calls === 1) throw new Error("transient");
      return { body: { ok: true } };
    });
    const headers = { "Idempotency-Key": "flaky" };
    expect((await call(route, "POST", "/flaky", { key, headers, body: {} })).status).toBe(500);
    expect((await call(route, "POST", "/flaky", { key, headers, body: {} })).status).toBe(200);
    expect(calls).toBe(2);
  });

  it("records nothing for a request rejected by validation, so the fixed request may reuse the key", async () => {
    const { key } = await makeOrg();
    const headers = { "Idempotency-Key": "fix-and-retry" };
    const invalid = await call(create, "POST", "/v1/connections", { key, headers, body: { carrier_name: "sandbox" } });
    expect(invalid.status).toBe(400);
    const fixed = await call(create, "POST", "/v1/connections", { key, headers, body: conn("fixed") });
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get("idempotent-replayed")).toBeNull();
  });

  it("frees a key after its 24 hours: the same key then runs a new request", async () => {
    const { key } = await makeOrg();
    const headers = { "Idempotency-Key": "yesterday" };
    // The first request is made a day ago (the clock is set back, not forward: a sweep at a time a day ahead would
    // delete other test files' keys on a shared database).
    const today = Date.now();
    vi.useFakeTimers({ toFake: ["Date"], now: today - 24 * 3600 * 1000 });
    expect((await call(create, "POST", "/v1/connections", { key, headers, body: conn("day-1") })).status).toBe(201);
    vi.setSystemTime(today);
    const again = await call(create, "POST", "/v1/connections", { key, headers, body: conn("day-2") });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBeNull();
    expect(again.body.carrier_id).toBe("day-2");
  });

  it("sweeps expired keys so the table does not grow without bound", async () => {
    const { key, orgId } = await makeOrg();
    const now = Date.now();
    vi.useFakeTimers({ toFake: ["Date"], now: now - 25 * 3600 * 1000 });
    await call(create, "POST", "/v1/connections", { key, headers: { "Idempotency-Key": "old" }, body: conn("old") });
    vi.useRealTimers();
    const db = await getDb();
    const mine = eq(idempotencyKeys.orgId, orgId);
    expect(await db.select().from(idempotencyKeys).where(mine)).toHaveLength(1);
    await sweepExpiredIdempotencyKeys(db, new Date(now));
    expect(await db.select().from(idempotencyKeys).where(mine)).toHaveLength(0);
  });

  it("rejects a key longer than 255 characters", async () => {
    const { key } = await makeOrg();
    const res = await call(create, "POST", "/v1/connections", {
      key,
      headers: { "Idempotency-Key": "k".repeat(256) },
      body: conn("z"),
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe("Idempotency-Key");
  });
});
