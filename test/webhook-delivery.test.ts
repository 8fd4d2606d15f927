import { beforeEach, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { POST as redeliver } from "@/app/v1/events/[id]/redeliver/route";
import { POST as refreshTracker } from "@/app/v1/trackers/[id]/refresh/route";
import { getDb } from "@/lib/db/client";
import { auditEvents, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import type { EventType } from "@/lib/schemas/event";
import { WebhookUpdate } from "@/lib/schemas/webhook";
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from "@/lib/webhooks/backoff";
import { planWebhookRound } from "@/lib/webhooks/due-deliveries";
import { newSigningSecret } from "@/lib/webhooks/endpoint-rows";
import { recordEvents } from "@/lib/webhooks/outbox";
import { DELIVERY_TIMEOUT_MS } from "@/lib/webhooks/safe-fetch";
import { deleteEndpoint } from "@/lib/webhooks/delete-endpoint";
import { rotateSecret } from "@/lib/webhooks/rotate-secret";
import { updateEndpoint } from "@/lib/webhooks/update-endpoint";
import { ENDPOINT_RECHECK_MS, sendDueWebhooks, sendEndpointDeliveries } from "@/lib/webhooks/send-due";
import { clockStill, fakeTimeouts } from "./clock";
import { addSandbox, createShipmentFor, purchaseFor } from "./factories";
import { call, makeOrg, orgCtx, systemCtx } from "./helpers";
import { captureLogs, sandboxNumbers, seedDueTrackers } from "./refresh-helpers";
import {
  allowPrivateUrls,
  attemptsOf,
  createEndpoint,
  deliveriesOf,
  endpointRow,
  fakeClock,
  useWebhookReceivers,
} from "./webhook-helpers";
import type { Receiver } from "./webhook-receiver";

/**
 * Delivery with real HTTP receivers on 127.0.0.1 (docs/webhooks.md). Time is a fake clock wherever a retry is due
 * later; signatures are verified with the standardwebhooks library, as a receiver would.
 */

// Whole rounds here only see the endpoints the running test made, in the order it made them (a test can tell which
// endpoint a round starts with): deliveries another test left due (tests run in any order) are not its round's.
const mine = vi.hoisted(() => new Set<string>());
beforeEach(() => mine.clear());
vi.mock("@/lib/webhooks/due-deliveries", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/lib/webhooks/due-deliveries")>();
  return {
    ...original,
    planWebhookRound: async (...args: Parameters<typeof original.planWebhookRound>) => {
      const planned = await original.planWebhookRound(...args);
      return [...mine].filter((id) => planned.includes(id));
    },
  };
});

const receiver = useWebhookReceivers();

async function endpoint(orgId: string, url: string, more: Parameters<typeof createEndpoint>[2] = {}) {
  const created = await createEndpoint(orgId, url, more);
  mine.add(created.id);
  return created;
}

/** Events written as a change would write them, in one transaction, at `now`. */
async function emit(
  orgId: string,
  items: { type: EventType; data?: Record<string, unknown> }[],
  { now = new Date(), testMode = true } = {},
) {
  const db = await getDb();
  return db.transaction((tx) =>
    recordEvents(
      tx,
      items.map((e, i) => ({
        orgId,
        type: e.type,
        resourceId: `shp_${String(i).padStart(32, "0")}`,
        testMode,
        data: e.data ?? { id: `shp_${i}`, status: "in_transit" },
      })),
      now,
    ),
  );
}

const send = async (endpointId: string, clock: () => Date = () => new Date(), options = {}) =>
  sendEndpointDeliveries({ ctx: await systemCtx(), endpointId, clock, options: { random: () => 0.5, ...options } });

const verify = (secret: string, got: Receiver["received"][number]) =>
  new Webhook(secret).verify(got.body, got.headers as Record<string, string>);
/** Verifies as a receiver whose clock reads `now` (the library checks the timestamp against it). */
function verifyAt(now: Date, secret: string, got: Receiver["received"][number]) {
  vi.useFakeTimers({ toFake: ["Date"], now });
  try {
    return verify(secret, got);
  } finally {
    vi.useRealTimers();
  }
}

describe("signatures", () => {
  it("follow Standard Webhooks: the receiver verifies them with the standardwebhooks library", async () => {
    const { orgId } = await makeOrg();
    const r = await receiver();
    const { id, secret } = await endpoint(orgId, r.url);
    const [eventId] = await emit(orgId, [{ type: "shipment.status_changed" }]);
    expect(await send(id)).toMatchObject({ sent: 1, succeeded: 1 });

    const got = r.received[0]!;
    expect(got.headers["webhook-id"]).toBe(eventId);
    expect(got.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    expect(verify(secret, got)).toEqual({
      id: eventId,
      type: "shipment.status_changed",
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/),
      test_mode: true,
      data: { id: "shp_0", status: "in_transit" },
    });
    expect(() => verify(newSigningSecret(), got)).toThrow(/No matching signature/);
    expect(() => new Webhook(secret).verify(got.body.replace("in_transit", "delivered"), got.headers as never)).toThrow(
      /No matching signature/,
    );
  });

  it("carry the time of sending: an attempt signed long ago fails the receiver's timestamp check", async () => {
    const { orgId } = await makeOrg();
    const r = await receiver();
    const { id, secret } = await endpoint(orgId, r.url);
    const tenMinutesAgo = new Date(Date.now() - 10 * 60_000);
    await emit(orgId, [{ type: "shipment.status_changed" }], { now: tenMinutesAgo });
    await send(id, () => tenMinutesAgo);
    expect(r.received[0]!.headers["webhook-timestamp"]).toBe(String(Math.floor(tenMinutesAgo.getTime() / 1000)));
    expect(() => verify(secret, r.received[0]!)).toThrow(/timestamp too old/);
  });

  it("during a rotation sign with both secrets for 24 hours, and with the new one alone from then on", async () => {
    const { orgId } = await makeOrg();
    const r = await receiver();
    const { id, secret: old } = await endpoint(orgId, r.url);
    const rotatedAt = new Date(Date.now() + 1000);
    const { secret } = await rotateSecret({ ctx: await orgCtx(orgId), id, now: rotatedAt });
    const lastMoment = new Date(rotatedAt.getTime() + 86_400_000 - 1);
    const expiry = new Date(rotatedAt.getTime() + 86_400_000);
    // Recorded without the secret: only that it changed, and until when the old one still signs.
    const audit = await (await getDb()).select().from(auditEvents).where(eq(auditEvents.orgId, orgId));
    expect(audit.filter((a) => a.action === "webhook_endpoint.secret_rotated")).toMatchObject([
      { resourceId: id, summary: { previous_secret_expires_at: expiry.toISOString() } },
    ]);
    await emit(orgId, [{ type: "tracker.updated" }], { now: rotatedAt });
    await send(id, () => lastMoment);
    const during = r.received[0]!;
    expect(String(during.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verifyAt(lastMoment, secret, during)).toMatchObject({ type: "tracker.updated" });
    expect(verifyAt(lastMoment, old, during)).toMatchObject({ type: "tracker.updated" });

    await emit(orgId, [{ type: "tracker.updated" }], { now: rotatedAt });
    await send(id, () => expiry);
    const after = r.received[1]!;
    expect(String(after.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    expect(verifyAt(expiry, secret, after)).toMatchObject({ type: "tracker.updated" });
    expect(() => verifyAt(expiry, old, after)).toThrow(/No matching signature/);
  });

  it("present data in the endpoint's API version", async () => {
    const { orgId } = await makeOrg();
    const r = await receiver();
    const { id } = await endpoint(orgId, r.url, { apiVersion: "2021-07" });
    await emit(orgId, [
      { type: "shipment.status_changed", data: { id: "shp_1", status: "out_for_delivery" } },
      { type: "tracker.updated", data: { id: "trk_1", status: "picked_up", events: [{ status: "picked_up" }] } },
    ]);
    await send(id);
    expect(r.received.map((g) => g.json.data)).toEqual([
      { id: "shp_1", status: "in-transit" },
      { id: "trk_1", status: "shipped", events: [{ status: "shipped" }] },
    ]);
  });
});

describe("retries", () => {
  it("retry a failing receiver exactly at the backoff times, log every attempt, and stop at the first 2xx", async () => {
    const { orgId } = await makeOrg();
    const r = await receiver((n) =>
      n < 2 ? { status: 500, body: "down for maintenance" } : { status: 200, body: "ok" },
    );
    const { id } = await endpoint(orgId, r.url);
    const t0 = new Date(Date.now() + 1000);
    const clock = fakeClock(t0);
    const [eventId] = await emit(orgId, [{ type: "tracker.delivered" }], { now: t0 });

    expect(await send(id, clock.now)).toMatchObject({ sent: 1, failed: 1 });
    const first = (await deliveriesOf(id))[0]!;
    expect(first).toMatchObject({ status: "pending", attempts: 1 });
    expect(first.nextAttemptAt!.getTime() - t0.getTime()).toBe(RETRY_DELAYS_MS[0]);
    expect((await endpointRow(id)).failingSince).toEqual(t0);

    clock.advance(RETRY_DELAYS_MS[0]! - 1);
    expect(await send(id, clock.now)).toMatchObject({ sent: 0 });
    clock.advance(1);
    expect(await send(id, clock.now)).toMatchObject({ sent: 1, failed: 1 });
    const t1 = clock.now();
    clock.advance(RETRY_DELAYS_MS[1]! - 1);
    expect(await send(id, clock.now)).toMatchObject({ sent: 0 });
    clock.advance(1);
    expect(await send(id, clock.now)).toMatchObject({ sent: 1, succeeded: 1 });
    const t2 = clock.now();

    expect(r.received.map((g) => g.headers["webhook-id"])).toEqual([eventId, eventId, eventId]);
    const attempts = await attemptsOf(id);
    expect(attempts.map((a) => [a.attemptedAt, a.statusCode, a.errorClass, a.responseExcerpt, a.succeeded])).toEqual([
      [t0, 500, "http_status", "down for maintenance", false],
      [t1, 500, "http_status", "down for maintenance", false],
      [t2, 200, null, "ok", true],
    ]);
    expect((await deliveriesOf(id))[0]).toMatchObject({ status: "succeeded", attempts: 3, nextAttemptAt: null });
    expect((await endpointRow(id)).failingSince).toBeNull();
  });

  it("keep each endpoint's order: a newer delivery waits while the oldest is retried", async () => {
    const { orgId } = await makeOrg();
    const r = await receiver((n) => (n === 0 ? { status: 503 } : { status: 200 }));
    const { id } = await endpoint(orgId, r.url);
    const clock = fakeClock(new Date(Date.now() + 1000));
    await emit(orgId, [{ type: "tracker.created" }, { type: "tracker.updated" }, { type: "tracker.delivered" }], {
      now: clock.now(),
    });
    await send(id, clock.now);
    expect(r.received.map((g) => g.json.type)).toEqual(["tracker.created"]);
    // The later deliveries are due, but not before the head.
    expect(await planWebhookRound({ ctx: await systemCtx(), now: clock.now() })).not.toContain(id);
    expect(await send(id, clock.now)).toMatchObject({ sent: 0 });
    clock.advance(RETRY_DELAYS_MS[0]! + 1);
    await send(id, clock.now);
    expect(r.received.map((g) => g.json.type)).toEqual([
      "tracker.created",
      "tracker.created",
      "tracker.updated",
      "tracker.delivered",
    ]);
  });

  it("end in `failed` when the schedule runs out; redeliver then sends the event again", async () => {
    const { orgId, key } = await makeOrg();
    let healthy = false;
    const r = await receiver(() => (healthy ? { status: 200 } : { status: 500 }));
    const { id } = await endpoint(orgId, r.url);
    const clock = fakeClock(new Date(Date.now() + 1000));
    const [eventId] = await emit(orgId, [{ type: "shipment.purchased" }], { now: clock.now() });

    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      expect(await send(id, clock.now)).toMatchObject({ sent: 1, failed: 1 });
      const [d] = await deliveriesOf(id);
      if (d!.nextAttemptAt) clock.set(d!.nextAttemptAt);
    }
    expect((await deliveriesOf(id))[0]).toMatchObject({
      status: "failed",
      attempts: MAX_ATTEMPTS,
      nextAttemptAt: null,
    });
    expect(await attemptsOf(id)).toHaveLength(MAX_ATTEMPTS);
    // About three days of retries is less than five days of failures: the endpoint is still enabled.
    expect(await endpointRow(id)).toMatchObject({ enabled: true, disabledReason: null });
    expect(await send(id, () => new Date(clock.now().getTime() + 30 * 86_400_000))).toMatchObject({ sent: 0 });

    healthy = true;
    const res = await call(redeliver, "POST", `/v1/events/${eventId}/redeliver`, { key, params: { id: eventId! } });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      event_id: eventId,
      deliveries: [{ endpoint_id: id, status: "pending", next_attempt_at: expect.any(String) }],
    });
    expect(await send(id)).toMatchObject({ sent: 1, succeeded: 1 });
    expect(r.received.at(-1)!.headers["webhook-id"]).toBe(eventId);
    expect((await deliveriesOf(id)).map((d) => d.status)).toEqual(["failed", "succeeded"]);
    expect((await endpointRow(id)).failingSince).toBeNull();
  });

  it("disable an endpoint that has failed for 5 days straight", async () => {
    const { orgId } = await makeOrg();
    const r = await receiver(() => ({ status: 500 }));
    const { id } = await endpoint(orgId, r.url);
    const t0 = new Date(Date.now() + 1000);
    const clock = fakeClock(t0);
    await emit(orgId, [{ type: "tracker.updated" }, { type: "tracker.updated" }], { now: t0 });
    for (let i = 0; i < 100 && (await endpointRow(id)).enabled; i++) {
      await send(id, clock.now);
      const head = (await deliveriesOf(id)).find((d) => d.status === "pending");
      clock.set(head!.nextAttemptAt!);
    }
    const row = await endpointRow(id);
    expect(row).toMatchObject({ enabled: false, disabledReason: "failing", failingSince: null });
    const last = (await attemptsOf(id)).at(-1)!;
    expect(last.attemptedAt.getTime() - t0.getTime()).toBeGreaterThanOrEqual(5 * 86_400_000);
    expect(last.attemptedAt.getTime() - t0.getTime()).toBeLessThan(5 * 86_400_000 + 11 * 3_600_000);
    // The first delivery ran out of retries; the second stays pending for the endpoint, which the sender now skips.
    expect((await deliveriesOf(id)).map((d) => d.status)).toEqual(["failed", "pending"]);
    expect(
      await planWebhookRound({ ctx: await systemCtx(), now: new Date(t0.getTime() + 30 * 86_400_000) }),
    ).not.toContain(id);
  });

  it("410 Gone disables the endpoint at once; its pending deliveries wait for it to be enabled again", async () => {
    const { orgId } = await makeOrg();
    let gone = true;
    const r = await receiver(() => (gone ? { status: 410, body: "no such hook" } : { status: 200 }));
    const { id } = await endpoint(orgId, r.url);
    await emit(orgId, [{ type: "tracker.created" }, { type: "tracker.updated" }]);
    expect(await send(id)).toMatchObject({ sent: 1, failed: 1, disabled: true });
    expect(await endpointRow(id)).toMatchObject({ enabled: false, disabledReason: "gone" });
    expect((await attemptsOf(id))[0]).toMatchObject({ statusCode: 410, errorClass: "http_status" });
    const later = () => new Date(Date.now() + 86_400_000);
    expect(await send(id, later)).toMatchObject({ sent: 0 });
    expect((await deliveriesOf(id)).map((d) => d.status)).toEqual(["pending", "pending"]);

    gone = false;
    const db = await getDb();
    await db.update(webhookEndpoints).set({ enabled: true, disabledReason: null }).where(eq(webhookEndpoints.id, id));
    expect(await send(id, later)).toMatchObject({ sent: 2, succeeded: 2 });
    expect(r.received.map((g) => g.json.type)).toEqual(["tracker.created", "tracker.created", "tracker.updated"]);
  });

  it("a 410 on a delivery's last attempt fails it for good and still stops the worker: nothing more is sent", async () => {
    const { orgId } = await makeOrg();
    const r = await receiver(() => ({ status: 410 }));
    const { id } = await endpoint(orgId, r.url);
    await emit(orgId, [{ type: "tracker.created" }, { type: "tracker.updated" }]);
    const [head] = await deliveriesOf(id);
    const db = await getDb();
    await db
      .update(webhookDeliveries)
      .set({ attempts: MAX_ATTEMPTS - 1 })
      .where(eq(webhookDeliveries.id, head!.id));
    expect(await send(id)).toMatchObject({ sent: 1, failed: 1, disabled: true });
    expect(r.received.map((g) => g.json.type)).toEqual(["tracker.created"]);
    expect((await deliveriesOf(id)).map((d) => d.status)).toEqual(["failed", "pending"]);
    expect(await endpointRow(id)).toMatchObject({ enabled: false, disabledReason: "gone" });
  });
});

describe("safety at delivery", () => {
  it("refuses private addresses, http on a live endpoint, names resolving to loopback, and redirects", async () => {
    const { orgId } = await makeOrg();
    allowPrivateUrls(false);
    const r = await receiver();
    const literal = await endpoint(orgId, `http://10.0.0.1:${r.port}/hooks`);
    const loopback = await endpoint(orgId, r.url);
    const named = await endpoint(orgId, `http://hooks.customer.test:${r.port}/hooks`);
    const live = await endpoint(orgId, `http://hooks.customer.test:${r.port}/hooks`, { testMode: false });
    await emit(orgId, [{ type: "tracker.updated" }]);
    await emit(orgId, [{ type: "tracker.updated" }], { testMode: false });
    const resolve = async () => [{ address: "127.0.0.1", family: 4 as const }];
    for (const e of [literal, loopback, named, live]) await send(e.id, undefined, { resolve });
    const classes = await Promise.all([literal, loopback, named, live].map(async (e) => (await attemptsOf(e.id))[0]));
    expect(classes.map((a) => [a!.statusCode, a!.errorClass])).toEqual([
      [null, "refused_address"],
      [null, "refused_address"],
      [null, "refused_address"],
      [null, "insecure_url"],
    ]);
    expect(r.received).toHaveLength(0);
    // Refused attempts are failures like any other: retried on the schedule.
    expect((await deliveriesOf(named.id))[0]).toMatchObject({ status: "pending", attempts: 1 });

    allowPrivateUrls(true);
    const target = await receiver();
    const redirecting = await receiver(() => ({ status: 307, headers: { location: target.url } }));
    const moved = await endpoint(orgId, redirecting.url);
    await emit(orgId, [{ type: "tracker.updated" }]);
    await send(moved.id);
    expect((await attemptsOf(moved.id))[0]).toMatchObject({
      statusCode: 307,
      errorClass: "redirect",
      succeeded: false,
    });
    expect(target.received).toHaveLength(0);
  });
});

describe("independence and concurrency", () => {
  it("a hanging receiver times out without delaying another endpoint's delivery", async () => {
    const { orgId } = await makeOrg();
    const hanging = await receiver(() => "hang");
    const fast = await receiver();
    // The round starts with the hanging endpoint.
    const slow = await endpoint(orgId, hanging.url);
    const quick = await endpoint(orgId, fast.url);
    await emit(orgId, [{ type: "tracker.updated" }]);
    const ctx = await systemCtx();
    // The database pool is open: from here the deadline's clock is the test's, and it stands still until moved.
    fakeTimeouts();
    const round = sendDueWebhooks({ ctx });
    // The other endpoint gets its delivery with no time passing: it does not wait for the hanging one's deadline.
    await clockStill(Promise.all([hanging.arrived(), fast.arrived()]));
    expect(hanging.abandoned()).toBe(0);
    await vi.advanceTimersByTimeAsync(DELIVERY_TIMEOUT_MS);
    expect(await clockStill(round)).toMatchObject({ endpoints: 2, sent: 2, succeeded: 1, failed: 1 });
    vi.useRealTimers();
    // The server hears of the dropped connection a moment after the sender dropped it.
    await vi.waitFor(() => expect(hanging.abandoned()).toBe(1));
    expect((await attemptsOf(slow.id))[0]).toMatchObject({ statusCode: null, errorClass: "timeout" });
    expect((await attemptsOf(quick.id))[0]).toMatchObject({ statusCode: 200, succeeded: true });
  });

  it("two rounds running at once send each delivery exactly once, in order", async () => {
    const { orgId } = await makeOrg();
    const rs = await Promise.all([receiver(), receiver(), receiver()]);
    const ids = await Promise.all(rs.map((r) => endpoint(orgId, r.url)));
    const written = await emit(
      orgId,
      Array.from({ length: 15 }, () => ({ type: "tracker.updated" as const })),
    );
    const ctx = await systemCtx();
    const rounds = await Promise.all([sendDueWebhooks({ ctx }), sendDueWebhooks({ ctx }), sendDueWebhooks({ ctx })]);
    expect(rounds.reduce((n, r) => n + r.sent, 0)).toBe(45);
    for (const r of rs) expect(r.received.map((g) => g.headers["webhook-id"])).toEqual(written);
    for (const e of ids) expect((await attemptsOf(e.id)).length).toBe(15);
  });
});

describe("a whole round", () => {
  // A day back: only this test's events are due at it. Only performance.now (the round's stopwatch) is faked; each
  // answer that takes time moves it by hand.
  const roundAt = () => new Date(Date.now() - 86_400_000);

  it("reports the endpoints, the attempts, the disabled endpoints and its duration", async () => {
    const { orgId } = await makeOrg();
    vi.useFakeTimers({ toFake: ["performance"] });
    try {
      // The stopwatch reads more than the round's 45 s when it starts: only the time since its start counts.
      vi.advanceTimersByTime(60_000);
      const gone = await receiver(() => {
        vi.advanceTimersByTime(1_000);
        return { status: 410 };
      });
      const fine = await receiver();
      await endpoint(orgId, gone.url);
      await endpoint(orgId, fine.url);
      const at = roundAt();
      await emit(orgId, [{ type: "tracker.updated" }], { now: at });
      expect(await sendDueWebhooks({ ctx: await systemCtx(), clock: () => at })).toEqual({
        endpoints: 2,
        sent: 2,
        succeeded: 1,
        failed: 1,
        disabled: 1,
        duration_ms: 1_000,
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it("runs at most `concurrency` workers: a worker started when the time is up sends nothing", async () => {
    const { orgId } = await makeOrg();
    vi.useFakeTimers({ toFake: ["performance"] });
    try {
      const slow = () => {
        vi.advanceTimersByTime(1_000);
        return { status: 200 };
      };
      const rs = [await receiver(slow), await receiver(slow)];
      for (const r of rs) await endpoint(orgId, r.url);
      const at = roundAt();
      await emit(orgId, [{ type: "tracker.updated" }], { now: at });
      // One worker: the first endpoint's answer uses the whole second, and the second endpoint's turn never comes.
      expect(
        await sendDueWebhooks({ ctx: await systemCtx(), clock: () => at, concurrency: 1, maxDurationMs: 1_000 }),
      ).toMatchObject({ endpoints: 2, sent: 1 });
      expect(rs.reduce((n, r) => n + r.received.length, 0)).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("batches", () => {
  it("end at a failure to be retried: what is behind it waits, in order, and the endpoint stays enabled", async () => {
    const { orgId } = await makeOrg();
    const r = await receiver(() => ({ status: 500 }));
    const { id } = await endpoint(orgId, r.url);
    await emit(orgId, [{ type: "tracker.created" }, { type: "tracker.updated" }, { type: "tracker.delivered" }]);
    expect(await send(id)).toMatchObject({ sent: 1, succeeded: 0, failed: 1, disabled: false });
    expect(r.received.map((g) => g.json.type)).toEqual(["tracker.created"]);
    expect((await deliveriesOf(id)).map((d) => [d.status, d.attempts])).toEqual([
      ["pending", 1],
      ["pending", 0],
      ["pending", 0],
    ]);
  });

  it("are not claimed by a worker whose time is up (the stopwatch standing at its start)", async () => {
    const { orgId } = await makeOrg();
    const r = await receiver();
    const { id } = await endpoint(orgId, r.url);
    await emit(orgId, [{ type: "tracker.updated" }]);
    vi.useFakeTimers({ toFake: ["performance"] });
    try {
      const report = await sendEndpointDeliveries({ ctx: await systemCtx(), endpointId: id, maxDurationMs: 0 });
      expect(report).toMatchObject({ sent: 0 });
    } finally {
      vi.useRealTimers();
    }
    expect(r.received).toHaveLength(0);
    expect((await deliveriesOf(id)).map((d) => [d.status, d.leaseUntil])).toEqual([["pending", null]]);
  });

  it("follow one another in a round: 105 due deliveries to one endpoint are all sent, in order (batches of 100)", async () => {
    const { orgId } = await makeOrg();
    const r = await receiver();
    const { id } = await endpoint(orgId, r.url);
    const written = await emit(
      orgId,
      Array.from({ length: 105 }, () => ({ type: "tracker.updated" as const })),
    );
    expect(await send(id)).toMatchObject({ sent: 105, succeeded: 105, failed: 0 });
    expect(r.received.map((g) => g.headers["webhook-id"])).toEqual(written);
    expect((await deliveriesOf(id)).every((d) => d.status === "succeeded")).toBe(true);
  });

  it("never start an attempt their lease might not cover: the rest goes back, due as it was, in order", async () => {
    const { orgId } = await makeOrg();
    const r = await receiver();
    const { id } = await endpoint(orgId, r.url);
    const t0 = new Date(Date.now() + 1000);
    const written = await emit(
      orgId,
      [{ type: "tracker.created" }, { type: "tracker.updated" }, { type: "tracker.delivered" }],
      {
        now: t0,
      },
    );
    // Each reading of this clock is 25 s after the last: the second attempt would start 50 s into a 60 s lease.
    let reads = 0;
    const slowClock = () => new Date(t0.getTime() + 25_000 * reads++);
    expect(await send(id, slowClock)).toMatchObject({ sent: 1, succeeded: 1 });
    expect((await deliveriesOf(id)).map((d) => [d.status, d.leaseUntil, d.nextAttemptAt])).toEqual([
      ["succeeded", null, null],
      ["pending", null, t0],
      ["pending", null, t0],
    ]);
    await send(id, () => new Date(t0.getTime() + 60_000));
    expect(r.received.map((g) => g.headers["webhook-id"])).toEqual(written);
  });
});

describe("an endpoint changed while its batch is sent", () => {
  // The sender's stopwatch is faked: an attempt takes no time on it unless the test moves it. It starts a while after
  // zero, as a real one does (performance.now() counts from the process's start).
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["performance"] });
    vi.advanceTimersByTime(60_000);
    return () => vi.useRealTimers();
  });

  /**
   * A resolver that commits `change` during the first attempt's name lookup, then lets `after` ms pass on the sender's
   * stopwatch, then answers 127.0.0.1.
   */
  function changingDuringFirstAttempt(change: () => Promise<unknown>, after = ENDPOINT_RECHECK_MS) {
    let first = true;
    return async () => {
      if (first) {
        first = false;
        await change();
        vi.advanceTimersByTime(after);
      }
      return [{ address: "127.0.0.1", family: 4 as const }];
    };
  }

  const three = [
    { type: "tracker.created" as const },
    { type: "tracker.updated" as const },
    { type: "tracker.delivered" as const },
  ];

  it("sends nothing more once disabled: the rest wait for it, due as they were", async () => {
    const { orgId } = await makeOrg();
    const r = await receiver();
    const { id } = await endpoint(orgId, `http://hooks.test:${r.port}/`);
    await emit(orgId, three);
    const resolve = changingDuringFirstAttempt(async () =>
      updateEndpoint({ ctx: await orgCtx(orgId), id, input: WebhookUpdate.parse({ enabled: false }) }),
    );
    // The attempt under way as it was disabled finishes; no other starts.
    expect(await send(id, undefined, { resolve })).toMatchObject({ sent: 1 });
    expect(r.received).toHaveLength(1);
    expect((await deliveriesOf(id)).map((d) => [d.status, d.leaseUntil])).toEqual([
      ["succeeded", null],
      ["pending", null],
      ["pending", null],
    ]);
  });

  it("sends the rest to the new address once re-pointed, in order", async () => {
    const { orgId } = await makeOrg();
    const old = await receiver();
    const moved = await receiver();
    const { id } = await endpoint(orgId, `http://hooks.test:${old.port}/`);
    const written = await emit(orgId, three);
    const resolve = changingDuringFirstAttempt(async () =>
      updateEndpoint({
        ctx: await orgCtx(orgId),
        id,
        input: WebhookUpdate.parse({ url: `http://moved.test:${moved.port}/` }),
      }),
    );
    expect(await send(id, undefined, { resolve })).toMatchObject({ sent: 3, succeeded: 3 });
    expect(old.received.map((g) => g.headers["webhook-id"])).toEqual(written.slice(0, 1));
    expect(moved.received.map((g) => g.headers["webhook-id"])).toEqual(written.slice(1));
  });

  it("sends nothing more once deleted, and ends without an error", async () => {
    const { orgId } = await makeOrg();
    const r = await receiver();
    const { id } = await endpoint(orgId, `http://hooks.test:${r.port}/`);
    await emit(orgId, three);
    const resolve = changingDuringFirstAttempt(async () => deleteEndpoint({ ctx: await orgCtx(orgId), id }));
    expect(await send(id, undefined, { resolve })).toMatchObject({ sent: 1 });
    expect(r.received).toHaveLength(1);
  });

  it("is read again only once the last reading is ENDPOINT_RECHECK_MS old: a burst is not slowed by it", async () => {
    const { orgId } = await makeOrg();
    const r = await receiver();
    const { id } = await endpoint(orgId, `http://hooks.test:${r.port}/`);
    await emit(orgId, three);
    // Disabled during the first attempt, with less than the interval passed: the batch goes out whole.
    const resolve = changingDuringFirstAttempt(
      async () => updateEndpoint({ ctx: await orgCtx(orgId), id, input: WebhookUpdate.parse({ enabled: false }) }),
      ENDPOINT_RECHECK_MS - 1,
    );
    expect(await send(id, undefined, { resolve })).toMatchObject({ sent: 3 });
  });
});

describe("events from the service's own changes", () => {
  it("a purchase is delivered as shipment.purchased", async () => {
    const { orgId, key } = await makeOrg();
    const r = await receiver();
    const { id, secret } = await endpoint(orgId, r.url, { enabledEvents: ["shipment.purchased"] });
    const shipment = await createShipmentFor(key);
    expect((await purchaseFor(key, shipment)).status).toBe(200);
    await send(id);
    expect(r.received).toHaveLength(1);
    expect(verify(secret, r.received[0]!)).toMatchObject({
      type: "shipment.purchased",
      test_mode: true,
      data: { id: shipment.id, status: "purchased", tracking_number: expect.any(String), label: null },
    });
  });

  it("a tracker refreshed to delivered is delivered as tracker.updated, then tracker.delivered", async () => {
    const { orgId, key } = await makeOrg();
    const conn = await addSandbox(key, "hooks", { pace: 1 });
    const [trackerId] = await seedDueTrackers(orgId, conn.id, sandboxNumbers(1, 24 * 8, 0));
    const r = await receiver();
    const { id } = await endpoint(orgId, r.url, { enabledEvents: ["tracker.updated", "tracker.delivered"] });
    const res = await call(refreshTracker, "POST", `/v1/trackers/${trackerId}/refresh`, {
      key,
      params: { id: trackerId! },
    });
    expect(res.body.status).toBe("delivered");
    await send(id);
    expect(r.received.map((g) => [g.json.type, g.json.data.id, g.json.data.status])).toEqual([
      ["tracker.updated", trackerId, "delivered"],
      ["tracker.delivered", trackerId, "delivered"],
    ]);
  });
});

describe("redeliver", () => {
  it("targets one endpoint, or every subscribed endpoint; brings a pending delivery forward instead of doubling it", async () => {
    const { orgId, key } = await makeOrg();
    const a = await receiver();
    const b = await receiver();
    const all = await endpoint(orgId, a.url);
    const some = await endpoint(orgId, b.url, { enabledEvents: ["tracker.updated"] });
    await endpoint(orgId, b.url, { enabledEvents: ["shipment.created"] });
    await endpoint(orgId, b.url, { testMode: false });
    const [eventId] = await emit(orgId, [{ type: "tracker.updated" }]);
    await send(all.id);
    await send(some.id);

    const toAll = await call(redeliver, "POST", `/v1/events/${eventId}/redeliver`, { key, params: { id: eventId! } });
    expect(toAll.status).toBe(202);
    expect(toAll.body.deliveries.map((d: { endpoint_id: string }) => d.endpoint_id).sort()).toEqual(
      [all.id, some.id].sort(),
    );
    const again = await call(redeliver, "POST", `/v1/events/${eventId}/redeliver`, {
      key,
      params: { id: eventId! },
      body: { endpoint_id: all.id },
    });
    expect(again.status).toBe(202);
    expect(again.body.deliveries).toHaveLength(1);
    // Two asks while one is pending: still one pending delivery for that endpoint.
    expect((await deliveriesOf(all.id)).map((d) => d.status)).toEqual(["succeeded", "pending"]);
    await send(all.id);
    expect(a.received).toHaveLength(2);
  });

  it("is logged with the event and the number of endpoints it goes to", async () => {
    const { orgId, key } = await makeOrg();
    const r = await receiver();
    await endpoint(orgId, r.url);
    await endpoint(orgId, r.url);
    const [eventId] = await emit(orgId, [{ type: "tracker.updated" }]);
    const logs = captureLogs();
    try {
      const res = await call(redeliver, "POST", `/v1/events/${eventId}/redeliver`, { key, params: { id: eventId! } });
      expect(res.status).toBe(202);
    } finally {
      logs.restore();
    }
    expect(logs.lines).toContainEqual(
      expect.objectContaining({ msg: "webhook event redelivered", event_id: eventId, endpoints: 2 }),
    );
  });

  it("refuses another organization's event or endpoint and an expired event (404), a disabled endpoint (409), another mode (400)", async () => {
    const mineOrg = await makeOrg();
    const other = await makeOrg();
    const r = await receiver();
    const theirs = await endpoint(other.orgId, r.url);
    const [theirEvent] = await emit(other.orgId, [{ type: "tracker.updated" }]);
    const ours = await endpoint(mineOrg.orgId, r.url);
    const live = await endpoint(mineOrg.orgId, r.url, { testMode: false });
    const off = await endpoint(mineOrg.orgId, r.url, { enabled: false, disabledReason: "user" });
    const [ourEvent] = await emit(mineOrg.orgId, [{ type: "tracker.updated" }]);
    const ask = (eventId: string, body?: unknown) =>
      call(redeliver, "POST", `/v1/events/${eventId}/redeliver`, { key: mineOrg.key, params: { id: eventId }, body });

    const notOurs = await ask(theirEvent!);
    expect(notOurs.status).toBe(404);
    expect(notOurs.body.errors[0].message).toBe(`Event ${theirEvent} does not exist.`);
    const [expired] = await emit(mineOrg.orgId, [{ type: "tracker.updated" }], {
      now: new Date(Date.now() - 31 * 86_400_000),
    });
    expect((await ask(expired!)).status).toBe(404);
    expect((await ask(ourEvent!, { endpoint_id: theirs.id })).status).toBe(404);
    const disabled = await ask(ourEvent!, { endpoint_id: off.id });
    expect(disabled.status).toBe(409);
    expect(disabled.body.errors[0].message).toBe(
      `Webhook endpoint ${off.id} is disabled; enable it to send it events.`,
    );
    const wrongMode = await ask(ourEvent!, { endpoint_id: live.id });
    expect(wrongMode.status).toBe(400);
    expect(wrongMode.body.errors[0]).toMatchObject({
      field: "endpoint_id",
      message: expect.stringContaining("is a live endpoint; the event is a test event"),
    });
    const [liveEvent] = await emit(mineOrg.orgId, [{ type: "tracker.updated" }], { testMode: false });
    expect((await ask(liveEvent!, { endpoint_id: ours.id })).body.errors[0].message).toContain(
      "is a test endpoint; the event is a live event",
    );
    expect((await ask(ourEvent!, { endpoint_id: "whk_nope" })).status).toBe(400);
    expect((await ask(ourEvent!, { endpoint_id: ours.id })).status).toBe(202);
    // Nothing was queued for the other organization's endpoint.
    const db = await getDb();
    expect((await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, theirs.id))).length).toBe(
      1,
    );
  });
});
