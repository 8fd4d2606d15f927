import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { GET as listHooks, POST as createHook } from "@/app/v1/webhooks/route";
import { DELETE as deleteHook, GET as getHook, PATCH as patchHook } from "@/app/v1/webhooks/[id]/route";
import { POST as rotate } from "@/app/v1/webhooks/[id]/rotate-secret/route";
import { POST as createKey } from "@/app/v1/api_keys/route";
import { resetSignInLimits } from "@/lib/api/auth-endpoint";
import { addMember } from "@/lib/auth/memberships";
import { withTransaction } from "@/lib/context";
import { getDb } from "@/lib/db/client";
import { events, webhookAttempts, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import { resetEnvCache } from "@/lib/env";
import { signingSecrets } from "@/lib/webhooks/endpoint-rows";
import { recordEvents } from "@/lib/webhooks/outbox";
import { rotateSecret } from "@/lib/webhooks/rotate-secret";
import { call, makeOrg, orgCtx, systemCtx } from "./helpers";
import { ORIGIN, newAccount, signUp } from "./session-helpers";

/** Webhook endpoints through the API (docs/api.md, "Webhooks and events"). */

const hook = (extra: Record<string, unknown> = {}) => ({
  url: "https://hooks.example.com/shipwell",
  enabled_events: ["shipment.purchased", "tracker.delivered"],
  ...extra,
});

async function create(key: string, body: Record<string, unknown> = hook(), headers: Record<string, string> = {}) {
  return call(createHook, "POST", "/v1/webhooks", { key, body, headers });
}

async function created(key: string, body?: Record<string, unknown>) {
  const res = await create(key, body);
  if (res.status !== 201) throw new Error(`endpoint not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; secret: string; [k: string]: unknown };
}

const byId = (id: string) => ({ params: { id } });

async function rowOf(id: string) {
  const [row] = await (await getDb()).select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  return row;
}

const HOUR = 60 * 60 * 1000;

describe("creating an endpoint", () => {
  it("answers the signing secret once: never in GET or the list, and stored only encrypted", async () => {
    const { key } = await makeOrg();
    const res = await create(key, hook({ url: "https://Hooks.Example.com", description: "ERP" }));
    expect(res.status).toBe(201);
    const { secret, ...endpoint } = res.body;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(endpoint).toEqual({
      id: expect.stringMatching(/^whk_[0-9a-f]{32}$/),
      url: "https://hooks.example.com/",
      description: "ERP",
      enabled_events: ["shipment.purchased", "tracker.delivered"],
      enabled: true,
      disabled_reason: null,
      test_mode: true,
      api_version: "2026-11",
      failing_since: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });

    const got = await call(getHook, "GET", `/v1/webhooks/${endpoint.id}`, { key, ...byId(endpoint.id) });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(endpoint);
    const list = await call(listHooks, "GET", "/v1/webhooks", { key });
    expect(list.body).toMatchObject({ count: 1, next: null, previous: null, results: [endpoint] });
    expect(JSON.stringify([got.body, list.body])).not.toContain(secret.slice(6));

    const row = (await rowOf(endpoint.id))!;
    expect(row.secretEncrypted).not.toContain(secret.slice(6));
    expect(row.secretEncrypted).not.toContain(secret.slice(6, 20));
    expect(signingSecrets(row, new Date())).toEqual([secret]);
  });

  it("takes `*` for every type, drops duplicates, and can start disabled or live", async () => {
    const { key } = await makeOrg();
    expect((await created(key, hook({ enabled_events: "*" }))).enabled_events).toEqual(["*"]);
    expect((await created(key, hook({ enabled_events: ["tracker.created", "*"] }))).enabled_events).toEqual(["*"]);
    const twice = await created(key, hook({ enabled_events: ["tracker.created", "tracker.created"] }));
    expect(twice.enabled_events).toEqual(["tracker.created"]);
    const off = await created(key, hook({ enabled: false, test_mode: false }));
    expect(off).toMatchObject({ enabled: false, disabled_reason: "user", test_mode: false });
  });

  it("records the API version events will be written in: the request's, or the one asked for", async () => {
    const { key } = await makeOrg();
    const legacy = await call(createKey, "POST", "/v1/api_keys", {
      key,
      body: { name: "legacy", api_version: "2021-07" },
    });
    expect((await created(legacy.body.key)).api_version).toBe("2021-07");
    const header = await create(key, hook(), { "Shipwell-Version": "2021-07" });
    expect(header.body.api_version).toBe("2021-07");
    expect((await created(legacy.body.key, hook({ api_version: "2026-11" }))).api_version).toBe("2026-11");
    expect((await created(key)).api_version).toBe("2026-11");
  });

  it("answers 409 past 20 endpoints per organization", async () => {
    const { key } = await makeOrg();
    for (let i = 0; i < 20; i++) await created(key);
    const res = await create(key);
    expect(res.status).toBe(409);
    expect(res.body.errors[0]).toMatchObject({ code: "state_conflict", message: expect.stringMatching(/at most 20/) });
    expect((await call(listHooks, "GET", "/v1/webhooks", { key })).body.count).toBe(20);
  });
});

describe("endpoint URLs and event types", () => {
  afterEach(() => {
    delete process.env.WEBHOOKS_ALLOW_HTTP;
    delete process.env.WEBHOOKS_ALLOW_PRIVATE_URLS;
    resetEnvCache();
  });

  it("reports every problem of the body by its path, and creates nothing", async () => {
    const { key } = await makeOrg();
    const res = await create(key, { url: "ftp://files.example.com/x", enabled_events: ["shipment.created", "nope"] });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { code: "validation_error", field: "url", message: "must be an absolute http or https URL" },
      {
        code: "validation_error",
        field: "enabled_events[1]",
        message: expect.stringMatching(
          /^must be one of: shipment\.created, .*tracker\.deleted, batch\.completed, batch\.completed_with_errors, \*$/,
        ),
      },
    ]);
    const fieldOf = async (body: Record<string, unknown>) => {
      const r = await create(key, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      return r.body.errors.map((e: { field: string; message: string }) => `${e.field}: ${e.message}`);
    };
    expect(await fieldOf(hook({ url: "hooks.example.com/x" }))).toEqual(["url: must be an absolute http or https URL"]);
    expect(await fieldOf(hook({ url: "https://user:pw@hooks.example.com/" }))).toEqual([
      "url: must not contain a user name or password",
    ]);
    expect(await fieldOf(hook({ url: "https://hooks.example.com:0/" }))).toEqual(["url: must not use port 0"]);
    expect(await fieldOf(hook({ url: `https://hooks.example.com/${"a".repeat(2000)}` }))).toEqual([
      "url: must be at most 2000 characters",
    ]);
    expect(await fieldOf(hook({ enabled_events: [] }))).toEqual(["enabled_events: must have at least 1 item"]);
    expect(await fieldOf({ enabled_events: ["*"] })).toEqual(["url: is required"]);
    expect((await call(listHooks, "GET", "/v1/webhooks", { key })).body.count).toBe(0);
  });

  it("requires https for a live endpoint unless the operator allows http", async () => {
    const { key } = await makeOrg();
    const live = hook({ url: "http://hooks.example.com/in", test_mode: false });
    const refused = await create(key, live);
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      { code: "validation_error", field: "url", message: expect.stringMatching(/^must use https for a live endpoint/) },
    ]);
    // A test-mode endpoint may be plain http (a developer's tunnel, a staging receiver).
    expect((await create(key, hook({ url: "http://hooks.example.com/in" }))).status).toBe(201);
    process.env.WEBHOOKS_ALLOW_HTTP = "1";
    resetEnvCache();
    expect((await create(key, live)).status).toBe(201);
  });

  it("refuses private, loopback, link-local and metadata address literals unless the operator allows them", async () => {
    const { key } = await makeOrg();
    const refused = [
      "https://10.1.2.3/hook",
      "https://127.0.0.1:8443/",
      "https://2130706433/", // 127.0.0.1 written as one number
      "https://169.254.169.254/latest/meta-data/",
      "https://100.100.100.200/", // a cloud's metadata service, in carrier-grade NAT space
      "https://[::1]/",
      "https://[::ffff:127.0.0.1]/",
      "https://[::a9fe:a9fe]/latest/meta-data/", // 169.254.169.254, IPv4-compatible
      "https://[::169.254.169.254]/",
      "https://[64:ff9b::7f00:1]/",
      "https://[2002:a9fe:a9fe::]/",
      "https://[fd00:ec2::254]/",
      "https://[fe80::1]/",
      "https://0.0.0.0/",
      "http://localhost:3000/hooks",
      "https://api.localhost/",
      "https://localhost./", // the root's trailing dot: the same name
    ];
    for (const url of refused) {
      const res = await create(key, hook({ url }));
      expect(res.status, url).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ field: "url", message: expect.stringMatching(/private, loopback/) });
    }
    // A public literal is fine; names are resolved (and checked) when the sender connects.
    expect((await create(key, hook({ url: "https://8.8.8.8/hook" }))).status).toBe(201);
    expect((await create(key, hook({ url: "https://[2001:4860:4860::8888]/" }))).status).toBe(201);
    process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = "1";
    resetEnvCache();
    expect((await create(key, hook({ url: "http://127.0.0.1:4000/hooks" }))).status).toBe(201);
  });
});

describe("updating an endpoint", () => {
  afterEach(() => {
    delete process.env.WEBHOOKS_ALLOW_PRIVATE_URLS;
    resetEnvCache();
  });

  const patch = (key: string, id: string, body: unknown) =>
    call(patchHook, "PATCH", `/v1/webhooks/${id}`, { key, body, ...byId(id) });

  it("changes what it is given, leaves the rest, and checks a new URL by the endpoint's mode", async () => {
    const { key } = await makeOrg();
    const live = await created(key, hook({ test_mode: false, description: "ERP" }));
    const res = await patch(key, live.id, { enabled_events: ["tracker.exception"], description: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ enabled_events: ["tracker.exception"], description: "ERP", url: live.url });
    expect(res.body).not.toHaveProperty("secret");

    const http = await patch(key, live.id, { url: "http://hooks.example.com/v2" });
    expect(http.status).toBe(400);
    expect(http.body.errors[0]).toMatchObject({ field: "url", message: expect.stringMatching(/https/) });
    const priv = await patch(key, live.id, { url: "https://192.168.1.20/" });
    expect(priv.body.errors[0]).toMatchObject({ field: "url", message: expect.stringMatching(/private/) });
    const bad = await patch(key, live.id, { enabled_events: ["shipment.lost"], url: "nope" });
    expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual(["url", "enabled_events[0]"]);

    const moved = await patch(key, live.id, { url: "https://hooks.example.com/v2" });
    expect(moved.body.url).toBe("https://hooks.example.com/v2");
  });

  it("disables by the user's hand and re-enables with a clean record", async () => {
    const { key } = await makeOrg();
    const endpoint = await created(key);
    const off = await patch(key, endpoint.id, { enabled: false });
    expect(off.body).toMatchObject({ enabled: false, disabled_reason: "user" });

    // The sender disabled it after five days of failures.
    const since = new Date(Date.now() - 5 * 24 * HOUR);
    await (
      await getDb()
    )
      .update(webhookEndpoints)
      .set({ enabled: false, disabledReason: "failing", failingSince: since })
      .where(eq(webhookEndpoints.id, endpoint.id));
    const shown = await call(getHook, "GET", `/v1/webhooks/${endpoint.id}`, { key, ...byId(endpoint.id) });
    expect(shown.body).toMatchObject({ enabled: false, disabled_reason: "failing", failing_since: expect.any(String) });
    // Disabling again keeps the reason the sender gave.
    expect((await patch(key, endpoint.id, { enabled: false })).body.disabled_reason).toBe("failing");

    const on = await patch(key, endpoint.id, { enabled: true });
    expect(on.body).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null });
    const row = (await rowOf(endpoint.id))!;
    expect(row).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
  });
});

describe("deleting an endpoint", () => {
  it("answers it as it was; its deliveries and attempts go with it, the events stay", async () => {
    const { key, orgId } = await makeOrg();
    const endpoint = await created(key, hook({ enabled_events: ["*"] }));
    const ctx = await orgCtx(orgId);
    const [eventId] = await withTransaction(ctx, ({ db }) =>
      recordEvents(db, [
        { orgId, type: "shipment.created", resourceId: "shp_1", testMode: true, data: { id: "shp_1" } },
      ]),
    );
    const db = await getDb();
    const [delivery] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint.id));
    expect(delivery).toBeDefined();
    await db.insert(webhookAttempts).values({
      orgId,
      endpointId: endpoint.id,
      deliveryId: delivery!.id,
      eventId: eventId!,
      eventType: "shipment.created",
      attemptedAt: new Date(),
      statusCode: 500,
      durationMs: 12,
      errorClass: "http_status",
      succeeded: false,
    });

    const { secret: _secret, ...expected } = endpoint;
    const res = await call(deleteHook, "DELETE", `/v1/webhooks/${endpoint.id}`, { key, ...byId(endpoint.id) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(expected);
    expect((await call(getHook, "GET", `/v1/webhooks/${endpoint.id}`, { key, ...byId(endpoint.id) })).status).toBe(404);
    expect(
      (await call(deleteHook, "DELETE", `/v1/webhooks/${endpoint.id}`, { key, ...byId(endpoint.id) })).status,
    ).toBe(404);
    expect(await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint.id))).toEqual([]);
    expect(await db.select().from(webhookAttempts).where(eq(webhookAttempts.endpointId, endpoint.id))).toEqual([]);
    expect(await db.select({ id: events.id }).from(events).where(eq(events.id, eventId!))).toHaveLength(1);
  });
});

describe("rotating the signing secret", () => {
  it("answers a new secret once; the old one keeps signing beside it for 24 hours, and not after", async () => {
    const { key, orgId } = await makeOrg();
    const endpoint = await created(key);
    const res = await call(rotate, "POST", `/v1/webhooks/${endpoint.id}/rotate-secret`, { key, ...byId(endpoint.id) });
    expect(res.status).toBe(200);
    const { secret: second, ...shown } = res.body;
    expect(second).toMatch(/^whsec_/);
    expect(second).not.toBe(endpoint.secret);
    expect(shown).toMatchObject({ id: endpoint.id, url: endpoint.url, enabled: true });
    const got = await call(getHook, "GET", `/v1/webhooks/${endpoint.id}`, { key, ...byId(endpoint.id) });
    expect(got.body).not.toHaveProperty("secret");
    expect(signingSecrets((await rowOf(endpoint.id))!, new Date())).toEqual([second, endpoint.secret]);

    // A second rotation within the 24 hours makes the then-current secret the previous one, by a fixed clock.
    const now = new Date("2031-03-01T12:00:00Z");
    const third = await rotateSecret({ ctx: await orgCtx(orgId), id: endpoint.id, now });
    const row = (await rowOf(endpoint.id))!;
    expect(row.previousSecretExpiresAt).toEqual(new Date(now.getTime() + 24 * HOUR));
    expect(signingSecrets(row, now)).toEqual([third.secret, second]);
    expect(signingSecrets(row, new Date(now.getTime() + 24 * HOUR - 1))).toEqual([third.secret, second]);
    expect(signingSecrets(row, new Date(now.getTime() + 24 * HOUR))).toEqual([third.secret]);
    expect(JSON.stringify(row)).not.toContain(third.secret.slice(6));
  });
});

describe("tenancy", () => {
  it("answers another organization's endpoint 404 everywhere and never lists it", async () => {
    const a = await makeOrg();
    const b = await makeOrg();
    const theirs = await created(a.key);
    const opts = { key: b.key, ...byId(theirs.id) };
    const path = `/v1/webhooks/${theirs.id}`;
    expect((await call(getHook, "GET", path, opts)).status).toBe(404);
    expect((await call(patchHook, "PATCH", path, { ...opts, body: { enabled: false } })).status).toBe(404);
    const rotated = await call(rotate, "POST", `${path}/rotate-secret`, opts);
    expect(rotated.status).toBe(404);
    expect(rotated.body.errors[0].message).toBe(`Webhook endpoint ${theirs.id} does not exist.`);
    expect((await call(deleteHook, "DELETE", path, opts)).status).toBe(404);
    expect((await call(listHooks, "GET", "/v1/webhooks", { key: b.key })).body).toMatchObject({ count: 0 });
    const untouched = await call(getHook, "GET", path, { key: a.key, ...byId(theirs.id) });
    expect(untouched.body).toMatchObject({ enabled: true });
    expect(signingSecrets((await rowOf(theirs.id))!, new Date())).toEqual([theirs.secret]);
  });

  it("answers a malformed id 400 on `id`", async () => {
    const { key } = await makeOrg();
    const res = await call(getHook, "GET", "/v1/webhooks/car_1", { key, ...byId("car_1") });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ field: "id", message: "must be a whk_ id" });
  });
});

describe("roles", () => {
  beforeEach(() => resetSignInLimits());

  it("lets members read endpoints and only owners and admins change them", async () => {
    const company = await makeOrg("Company");
    const endpoint = await created(company.key);
    const account = newAccount();
    const cookie = await signUp(account);
    await addMember({ ctx: await systemCtx(), orgId: company.orgId, email: account.email, role: "member" });
    const session = { headers: { Cookie: cookie, Origin: ORIGIN } };
    const path = `/v1/webhooks/${endpoint.id}`;

    expect((await call(listHooks, "GET", "/v1/webhooks", session)).body.count).toBe(1);
    expect((await call(getHook, "GET", path, { ...session, ...byId(endpoint.id) })).status).toBe(200);
    const writes = [
      await call(createHook, "POST", "/v1/webhooks", { ...session, body: hook() }),
      await call(patchHook, "PATCH", path, { ...session, ...byId(endpoint.id), body: { enabled: false } }),
      await call(rotate, "POST", `${path}/rotate-secret`, { ...session, ...byId(endpoint.id) }),
      await call(deleteHook, "DELETE", path, { ...session, ...byId(endpoint.id) }),
    ];
    for (const res of writes) {
      expect(res.status).toBe(403);
      expect(res.body.errors[0]).toMatchObject({ code: "forbidden", message: expect.stringMatching(/owner or admin/) });
    }
    expect((await call(listHooks, "GET", "/v1/webhooks", session)).body.results[0]).toMatchObject({ enabled: true });

    await addMember({ ctx: await systemCtx(), orgId: company.orgId, email: account.email, role: "admin" });
    const byAdmin = await call(createHook, "POST", "/v1/webhooks", { ...session, body: hook() });
    expect(byAdmin.status).toBe(201);
    // A person reads the current version: the endpoint's events come in it.
    expect(byAdmin.body.api_version).toBe("2026-11");
  });
});
