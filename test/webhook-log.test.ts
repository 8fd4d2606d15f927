import { describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { GET as listDeliveries } from "@/app/v1/webhooks/[id]/deliveries/route";
import { POST as testWebhook } from "@/app/v1/webhooks/[id]/test/route";
import { POST as redeliver } from "@/app/v1/events/[id]/redeliver/route";
import { addMember } from "@/lib/auth/memberships";
import { getDb } from "@/lib/db/client";
import { recordEvents } from "@/lib/webhooks/outbox";
import { sendEndpointDeliveries } from "@/lib/webhooks/send-due";
import { call, makeOrg, systemCtx } from "./helpers";
import { newAccount, signUp } from "./session-helpers";
import { allowPrivateUrls, createEndpoint, endpointRow, useWebhookReceivers } from "./webhook-helpers";

/** The test ping, the delivery log and who may use them (docs/webhooks.md, "The delivery log"). */

const receiver = useWebhookReceivers();

const ping = (key: string, id: string) => call(testWebhook, "POST", `/v1/webhooks/${id}/test`, { key, params: { id } });
const log = (key: string, id: string, query: Record<string, string> = {}) =>
  call(listDeliveries, "GET", `/v1/webhooks/${id}/deliveries`, { key, params: { id }, query });

describe("POST /v1/webhooks/{id}/test", () => {
  it("sends a signed ping now and answers the attempt", async () => {
    const { orgId, key } = await makeOrg();
    const r = await receiver(() => ({ status: 200, body: "pong" }));
    const { id, secret } = await createEndpoint(orgId, r.url);
    const res = await ping(key, id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      endpoint_id: id,
      event_id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      event_type: "ping",
      attempted_at: expect.any(String),
      status_code: 200,
      duration_ms: expect.any(Number),
      response_excerpt: "pong",
      error_class: null,
      succeeded: true,
    });
    const got = r.received[0]!;
    expect(new Webhook(secret).verify(got.body, got.headers as Record<string, string>)).toEqual({
      id: res.body.event_id,
      type: "ping",
      created_at: res.body.attempted_at,
      test_mode: true,
      data: { webhook_id: id },
    });
  });

  it("is a probe: a failure or a 410 changes nothing about the endpoint, and a disabled endpoint can be tested", async () => {
    const { orgId, key } = await makeOrg();
    const r = await receiver(() => ({ status: 410, body: "gone" }));
    const { id } = await createEndpoint(orgId, r.url, { enabled: false, disabledReason: "user" });
    const res = await ping(key, id);
    expect(res.body).toMatchObject({ status_code: 410, error_class: "http_status", succeeded: false });
    expect(await endpointRow(id)).toMatchObject({ enabled: false, disabledReason: "user", failingSince: null });

    const hostile = await createEndpoint(orgId, "https://10.1.2.3/hooks");
    allowPrivateUrls(false);
    try {
      expect((await ping(key, hostile.id)).body).toMatchObject({
        status_code: null,
        error_class: "refused_address",
        response_excerpt: null,
        succeeded: false,
      });
    } finally {
      allowPrivateUrls(true);
    }
  });
});

describe("GET /v1/webhooks/{id}/deliveries", () => {
  it("lists every attempt, newest first, in pages, filtered by event or outcome", async () => {
    const { orgId, key } = await makeOrg();
    const r = await receiver((n, got) =>
      got.json.type !== "ping" && n % 2 === 0 ? { status: 500, body: `no ${n}` } : { status: 200 },
    );
    const { id } = await createEndpoint(orgId, r.url);
    const db = await getDb();
    // In the past, so that the ping sent at the end is the newest attempt.
    const t0 = new Date(Date.now() - 60_000);
    const [first, second] = await db.transaction((tx) =>
      recordEvents(
        tx,
        ["tracker.created", "tracker.updated"].map((type) => ({
          orgId,
          type: type as "tracker.created",
          resourceId: "trk_1",
          testMode: true,
          data: { id: "trk_1" },
        })),
        t0,
      ),
    );
    const ctx = await systemCtx();
    // 500, then (5 s later) 200 for the first event and 500, then 200 for the second.
    for (const at of [0, 5_000, 5_000, 10_000, 10_000]) {
      await sendEndpointDeliveries({
        ctx,
        endpointId: id,
        clock: () => new Date(t0.getTime() + at),
        options: { random: () => 0.5 },
      });
    }
    await ping(key, id);

    const all = await log(key, id);
    expect(all.status).toBe(200);
    expect(all.body.count).toBe(5);
    expect(all.body.results.map((a: { event_id: string; status_code: number }) => [a.event_id, a.status_code])).toEqual(
      [
        [expect.stringMatching(/^evt_/), 200],
        [second, 200],
        [second, 500],
        [first, 200],
        [first, 500],
      ],
    );
    expect(all.body.results[0].event_type).toBe("ping");

    const page = await log(key, id, { limit: "2", offset: "2" });
    expect(page.body.results.map((a: { event_id: string }) => a.event_id)).toEqual([second, first]);
    expect(page.body.next).toBe(`/v1/webhooks/${id}/deliveries?limit=2&offset=4`);
    expect(page.body.previous).toBe(`/v1/webhooks/${id}/deliveries?limit=2&offset=0`);

    const failures = await log(key, id, { succeeded: "false" });
    expect(failures.body.results.map((a: { response_excerpt: string }) => a.response_excerpt)).toEqual([
      "no 2",
      "no 0",
    ]);
    const ofFirst = await log(key, id, { event_id: first! });
    expect(ofFirst.body.count).toBe(2);

    const bad = await log(key, id, { event_id: "nope", succeeded: "maybe", status: "x" });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(["event_id", "status", "succeeded"]);
  });
});

describe("tenancy and roles", () => {
  it("answers 404 for another organization's endpoint, and 400 for a malformed id", async () => {
    const mine = await makeOrg();
    const other = await makeOrg();
    const r = await receiver();
    const theirs = await createEndpoint(other.orgId, r.url);
    expect((await ping(mine.key, theirs.id)).status).toBe(404);
    expect((await log(mine.key, theirs.id)).status).toBe(404);
    expect(r.received).toHaveLength(0);
    expect((await ping(mine.key, "whk_123")).status).toBe(400);
    expect((await log(mine.key, "car_00000000000000000000000000000000")).status).toBe(400);
  });

  it("lets members read the delivery log; testing and redelivering take an owner or admin", async () => {
    const account = newAccount();
    const cookie = await signUp(account);
    const company = await makeOrg("Company");
    await addMember({ ctx: await systemCtx(), orgId: company.orgId, email: account.email, role: "member" });
    const r = await receiver();
    const { id } = await createEndpoint(company.orgId, r.url);
    const headers = { Cookie: cookie, Origin: "http://localhost" };
    const asMember = (handler: typeof testWebhook, method: string, path: string, params: Record<string, string>) =>
      call(handler, method, path, { headers, params });
    expect((await asMember(listDeliveries, "GET", `/v1/webhooks/${id}/deliveries`, { id })).status).toBe(200);
    const tested = await asMember(testWebhook, "POST", `/v1/webhooks/${id}/test`, { id });
    expect(tested.status).toBe(403);
    expect(tested.body.errors[0].message).toMatch(/owner or admin/);
    const eventId = "evt_00000000000000000000000000000000";
    expect((await asMember(redeliver, "POST", `/v1/events/${eventId}/redeliver`, { id: eventId })).status).toBe(403);
    expect(r.received).toHaveLength(0);
  });
});
