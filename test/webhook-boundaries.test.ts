import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it, vi } from "vitest";
import { eq, inArray } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { auditEvents, events, webhookAttempts, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import { formatTimestamp } from "@/lib/timestamp";
import { settleBatch } from "@/lib/webhooks/deliver";
import { claimBatch, planWebhookRound } from "@/lib/webhooks/due-deliveries";
import { EVENT_RETENTION_MS } from "@/lib/webhooks/event-rows";
import { recordEvents } from "@/lib/webhooks/outbox";
import { redeliverEvent } from "@/lib/webhooks/redeliver";
import { purgeExpired } from "@/lib/webhooks/retention";
import { sendDueWebhooks, sendEndpointDeliveries } from "@/lib/webhooks/send-due";
import { makeOrg, orgCtx, systemCtx } from "./helpers";
import { attemptsOf, createEndpoint, deliveriesOf, useWebhookReceivers } from "./webhook-helpers";

/**
 * The edges of the sender's time rules, each at its exact boundary by an injected clock (docs/webhooks.md,
 * "Delivery", "Several instances"): when a delivery is due, the 60 s lease and the last start 20 s before its end,
 * redelivery under a lease, the mid-batch settle, and the 30-day retention in batches.
 */

const receiver = useWebhookReceivers();

const SECOND = 1000;
// A fixed instant in the future (so nothing of other files is due at it), the same on every run.
const t0 = new Date(Date.now() + 3_600_000);
const at = (ms: number) => new Date(t0.getTime() + ms);

async function emit(orgId: string, count: number, now = t0) {
  const db = await getDb();
  return db.transaction((tx) =>
    recordEvents(
      tx,
      Array.from({ length: count }, (_, i) => ({
        orgId,
        type: "tracker.updated" as const,
        resourceId: `trk_${i}`,
        testMode: true,
        data: { id: `trk_${i}` },
      })),
      now,
    ),
  );
}

async function setDelivery(id: number, set: Partial<typeof webhookDeliveries.$inferInsert>) {
  const db = await getDb();
  await db.update(webhookDeliveries).set(set).where(eq(webhookDeliveries.id, id));
}

/** An endpoint (no receiver needed: nothing is sent) with `count` deliveries due at t0. */
async function endpointWithDue(count: number) {
  const { orgId } = await makeOrg();
  const { id } = await createEndpoint(orgId, "https://hooks.example.test/x");
  await emit(orgId, count);
  return { orgId, id, deliveries: await deliveriesOf(id) };
}

describe("when a head delivery is due and free", () => {
  it("is due from its next_attempt_at on, not a millisecond before", async () => {
    const { id } = await endpointWithDue(1);
    const ctx = await systemCtx();
    expect(await planWebhookRound({ ctx, now: at(-1) })).not.toContain(id);
    expect(await claimBatch(ctx, id, at(-1), 20)).toBeNull();
    expect(await planWebhookRound({ ctx, now: t0 })).toContain(id);
    expect((await claimBatch(ctx, id, t0, 20))?.deliveries).toHaveLength(1);
  });

  it.skipIf(!process.env.DATABASE_URL)(
    "is passed by, not waited for, while another sender holds its row locked; nothing behind it is claimed (Postgres)",
    async () => {
      const { id, deliveries } = await endpointWithDue(2);
      const db = await getDb();
      let release!: () => void;
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const other = db.transaction(async (tx) => {
        await tx.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveries[0]!.id)).for("update");
        locked();
        await new Promise<void>((resolve) => (release = resolve));
      });
      await isLocked;
      try {
        // Waiting for the lock would never end: the other sender lets go only after this claim answers.
        expect(await claimBatch(await systemCtx(), id, t0, 20)).toBeNull();
      } finally {
        release();
        await other;
      }
      expect((await claimBatch(await systemCtx(), id, t0, 20))?.deliveries).toHaveLength(2);
    },
  );

  it("is claimed with the due run behind it, up to the first delivery that is not due yet", async () => {
    const { id, deliveries } = await endpointWithDue(3);
    await setDelivery(deliveries[1]!.id, { nextAttemptAt: at(SECOND) });
    const batch = await claimBatch(await systemCtx(), id, t0, 20);
    expect(batch!.deliveries.map((d) => d.delivery.id)).toEqual([deliveries[0]!.id]);
  });

  it("is held for 60 s by a claim, and free again exactly when the lease ends", async () => {
    const { id, deliveries } = await endpointWithDue(2);
    const ctx = await systemCtx();
    const batch = await claimBatch(ctx, id, t0, 20);
    expect(batch!.leaseUntil).toEqual(at(60 * SECOND));
    expect((await deliveriesOf(id)).map((d) => d.leaseUntil)).toEqual([at(60 * SECOND), at(60 * SECOND)]);
    expect(batch!.deliveries.map((d) => d.delivery.id)).toEqual(deliveries.map((d) => d.id));

    const justBefore = at(60 * SECOND - 1);
    expect(await planWebhookRound({ ctx, now: justBefore })).not.toContain(id);
    expect(await claimBatch(ctx, id, justBefore, 20)).toBeNull();
    const end = at(60 * SECOND);
    expect(await planWebhookRound({ ctx, now: end })).toContain(id);
    expect((await claimBatch(ctx, id, end, 20))!.leaseUntil).toEqual(at(120 * SECOND));
  });

  it("claims the head alone with a limit of 1, and the run behind it up to the limit or the first not due", async () => {
    const { id, deliveries } = await endpointWithDue(5);
    const ctx = await systemCtx();
    const one = await claimBatch(ctx, id, t0, 1);
    expect(one!.deliveries.map((d) => d.delivery.id)).toEqual([deliveries[0]!.id]);
    expect((await deliveriesOf(id)).filter((d) => d.leaseUntil !== null).map((d) => d.id)).toEqual([deliveries[0]!.id]);

    // The fourth waits for a retry: the run behind the head stops before it, though the fifth is due.
    await setDelivery(deliveries[3]!.id, { nextAttemptAt: at(1) });
    const later = at(60 * SECOND);
    const run = await claimBatch(ctx, id, later, 2);
    expect(run!.deliveries.map((d) => d.delivery.id)).toEqual([deliveries[0]!.id, deliveries[1]!.id]);
    const rest = await claimBatch(ctx, id, at(120 * SECOND), 20);
    expect(rest!.deliveries.map((d) => d.delivery.id)).toEqual(deliveries.map((d) => d.id));
  });

  it("is not claimed for a disabled endpoint, whose deliveries are handed back unleased", async () => {
    const { id } = await endpointWithDue(2);
    const db = await getDb();
    await db
      .update(webhookEndpoints)
      .set({ enabled: false, disabledReason: "user" })
      .where(eq(webhookEndpoints.id, id));
    const ctx = await systemCtx();
    expect(await planWebhookRound({ ctx, now: t0 })).not.toContain(id);
    expect(await claimBatch(ctx, id, t0, 20)).toBeNull();
    expect((await deliveriesOf(id)).map((d) => [d.status, d.leaseUntil, d.nextAttemptAt])).toEqual([
      ["pending", null, t0],
      ["pending", null, t0],
    ]);
  });
});

describe("a worker", () => {
  it("starts an attempt up to 20 s before its lease ends, and none later", async () => {
    const { orgId } = await makeOrg();
    const r = await receiver();
    const { id } = await createEndpoint(orgId, r.url);
    const written = await emit(orgId, 3);
    // Claimed at t0 (lease to t0 + 60 s); the attempts start at 40 s (the last allowed instant), then 40 s + 1 ms.
    const readings = [t0, at(40 * SECOND), at(40 * SECOND + 1)];
    const clock = () => readings.shift() ?? at(40 * SECOND + 1);
    const report = await sendEndpointDeliveries({ ctx: await systemCtx(), endpointId: id, clock });
    expect(report).toMatchObject({ sent: 1, succeeded: 1 });
    expect(r.received.map((g) => g.headers["webhook-id"])).toEqual(written.slice(0, 1));
    expect((await deliveriesOf(id)).map((d) => [d.status, d.leaseUntil])).toEqual([
      ["succeeded", null],
      ["pending", null],
      ["pending", null],
    ]);
  });

  it("sends nothing once its time is up, and a round with no time left starts no worker", async () => {
    const { orgId } = await makeOrg();
    const r = await receiver();
    const { id } = await createEndpoint(orgId, r.url);
    await emit(orgId, 1);
    const ctx = await systemCtx();
    expect(await sendEndpointDeliveries({ ctx, endpointId: id, clock: () => t0, maxDurationMs: 0 })).toEqual({
      endpoint_id: id,
      sent: 0,
      succeeded: 0,
      failed: 0,
      disabled: false,
    });
    expect(await sendDueWebhooks({ ctx, clock: () => t0, maxDurationMs: 0 })).toMatchObject({ sent: 0 });
    expect(r.received).toHaveLength(0);
    expect((await deliveriesOf(id))[0]).toMatchObject({ status: "pending", leaseUntil: null });
  });

  it("writes what it sent every second while a batch runs, not only at its end", async () => {
    const { orgId } = await makeOrg();
    // Only performance.now is faked: the batch's own stopwatch. Each answer takes exactly one second of it.
    vi.useFakeTimers({ toFake: ["performance"] });
    const seen: number[] = [];
    let endpointId = "";
    const server = createServer((req, res) => {
      req.resume();
      req.on("end", async () => {
        // What the log held when this request came: the attempts already settled.
        seen.push((await attemptsOf(endpointId)).length);
        vi.advanceTimersByTime(1000);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
      endpointId = (await createEndpoint(orgId, url)).id;
      await emit(orgId, 3);
      const report = await sendEndpointDeliveries({ ctx: await systemCtx(), endpointId, clock: () => t0 });
      expect(report).toMatchObject({ sent: 3, succeeded: 3 });
      expect(seen).toEqual([0, 1, 2]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("keeps a failing endpoint's failing_since across a mid-batch settle", async () => {
    const { orgId } = await makeOrg();
    vi.useFakeTimers({ toFake: ["performance"] });
    const r = await receiver((n) => {
      vi.advanceTimersByTime(1000);
      return n === 0 ? { status: 200 } : { status: 500 };
    });
    const { id } = await createEndpoint(orgId, r.url);
    await emit(orgId, 2);
    await sendEndpointDeliveries({ ctx: await systemCtx(), endpointId: id, clock: () => t0 });
    const db = await getDb();
    const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
    expect(row!.failingSince).toEqual(t0);
  });

  it("clears failing_since in a mid-batch settle once an attempt succeeds", async () => {
    const { orgId } = await makeOrg();
    vi.useFakeTimers({ toFake: ["performance"] });
    const r = await receiver(() => {
      vi.advanceTimersByTime(1000);
      return { status: 200 };
    });
    const { id } = await createEndpoint(orgId, r.url);
    const db = await getDb();
    await db
      .update(webhookEndpoints)
      .set({ failingSince: at(-3_600 * SECOND) })
      .where(eq(webhookEndpoints.id, id));
    await emit(orgId, 2);
    expect(await sendEndpointDeliveries({ ctx: await systemCtx(), endpointId: id, clock: () => t0 })).toMatchObject({
      sent: 2,
      succeeded: 2,
    });
    const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
    expect(row!.failingSince).toBeNull();
  });
});

describe("a batch's settle", () => {
  it("settles each delivery by its own outcome in one go, logs every attempt, and hands back the rest", async () => {
    const { id, deliveries } = await endpointWithDue(5);
    const ctx = await systemCtx();
    const batch = await claimBatch(ctx, id, t0, 20);
    const [ok, spent, retried, stolen, unsent] = batch!.deliveries;
    // Another sender holds this one now (this batch overran its lease): its attempt is logged, its state untouched.
    await setDelivery(stolen!.delivery.id, { leaseUntil: at(90 * SECOND) });
    const attempt = (
      d: typeof ok,
      ms: number,
      result: { statusCode: number | null; excerpt: string | null; errorClass: "http_status" | "timeout" | null },
      verdict: Parameters<typeof settleBatch>[2][number]["verdict"],
    ) => ({ ...d!, attemptedAt: at(ms), result: { ...result, durationMs: ms + 1 }, verdict });
    await settleBatch(
      ctx,
      batch!,
      [
        attempt(ok, 1, { statusCode: 204, excerpt: "fine", errorClass: null }, { status: "succeeded" }),
        attempt(spent, 2, { statusCode: 500, excerpt: "no", errorClass: "http_status" }, { status: "failed" }),
        attempt(
          retried,
          3,
          { statusCode: null, excerpt: null, errorClass: "timeout" },
          {
            status: "pending",
            nextAttemptAt: at(5 * SECOND),
          },
        ),
        attempt(stolen, 4, { statusCode: 200, excerpt: "", errorClass: null }, { status: "succeeded" }),
      ],
      [unsent!.delivery],
      { failingSince: at(2), disabled: null },
    );
    expect(
      (await deliveriesOf(id)).map((d) => [d.id, d.status, d.attempts, d.nextAttemptAt, d.leaseUntil, d.updatedAt]),
    ).toEqual([
      [deliveries[0]!.id, "succeeded", 1, null, null, at(1)],
      [deliveries[1]!.id, "failed", 1, null, null, at(2)],
      [deliveries[2]!.id, "pending", 1, at(5 * SECOND), null, at(3)],
      [deliveries[3]!.id, "pending", 0, t0, at(90 * SECOND), t0],
      [deliveries[4]!.id, "pending", 0, t0, null, t0],
    ]);
    const db = await getDb();
    const logged = await db
      .select()
      .from(webhookAttempts)
      .where(eq(webhookAttempts.endpointId, id))
      .orderBy(webhookAttempts.id);
    expect(
      logged.map((a) => [
        a.deliveryId,
        a.eventId,
        a.eventType,
        a.attemptedAt,
        a.statusCode,
        a.durationMs,
        a.responseExcerpt,
        a.errorClass,
        a.succeeded,
      ]),
    ).toEqual([
      [deliveries[0]!.id, deliveries[0]!.eventId, "tracker.updated", at(1), 204, 2, "fine", null, true],
      [deliveries[1]!.id, deliveries[1]!.eventId, "tracker.updated", at(2), 500, 3, "no", "http_status", false],
      [deliveries[2]!.id, deliveries[2]!.eventId, "tracker.updated", at(3), null, 4, null, "timeout", false],
      [deliveries[3]!.id, deliveries[3]!.eventId, "tracker.updated", at(4), 200, 5, "", null, true],
    ]);
    expect(logged.every((a) => a.orgId === batch!.endpoint.orgId)).toBe(true);
    expect((await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)))[0]!.failingSince).toEqual(
      at(2),
    );
  });
});

describe("disabling an endpoint", () => {
  it("logs a warning when a 410 disables the endpoint", async () => {
    const { orgId } = await makeOrg();
    const r = await receiver(() => ({ status: 410 }));
    const { id } = await createEndpoint(orgId, r.url);
    await emit(orgId, 1);
    const ctx = await systemCtx();
    const warn = vi.spyOn(ctx.log, "warn");
    expect(await sendEndpointDeliveries({ ctx, endpointId: id, clock: () => t0 })).toMatchObject({ disabled: true });
    expect(warn).toHaveBeenCalledWith({
      msg: "webhook endpoint disabled",
      endpoint_id: id,
      org_id: orgId,
      reason: "gone",
    });
    // And the audit log says the sender did it, and why.
    const rows = await (await getDb()).select().from(auditEvents).where(eq(auditEvents.resourceId, id));
    expect(rows.map((r) => [r.action, r.actorType, r.actorName, r.summary])).toEqual([
      ["webhook_endpoint.disabled", "system", "test", { reason: "gone" }],
    ]);
  });

  it("logs nothing when the endpoint was disabled meanwhile (by the user, or another sender)", async () => {
    const { id } = await endpointWithDue(1);
    const ctx = await systemCtx();
    const batch = await claimBatch(ctx, id, t0, 20);
    const db = await getDb();
    await db
      .update(webhookEndpoints)
      .set({ enabled: false, disabledReason: "user" })
      .where(eq(webhookEndpoints.id, id));
    const warn = vi.spyOn(ctx.log, "warn");
    const { delivery, event } = batch!.deliveries[0]!;
    await settleBatch(
      ctx,
      batch!,
      [
        {
          delivery,
          event,
          attemptedAt: t0,
          result: { statusCode: 410, excerpt: null, errorClass: "http_status", durationMs: 1 },
          verdict: { status: "pending", nextAttemptAt: at(5 * SECOND) },
        },
      ],
      [],
      { failingSince: t0, disabled: "gone" },
    );
    expect(warn).not.toHaveBeenCalled();
    expect(await db.select().from(auditEvents).where(eq(auditEvents.resourceId, id))).toEqual([]);
    const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
    expect(row).toMatchObject({ enabled: false, disabledReason: "user" });
  });
});

describe("redelivery of a pending delivery", () => {
  it("brings it forward when no sender holds it, and adds another behind a sender's lease", async () => {
    const { orgId, id, deliveries } = await endpointWithDue(1);
    const [eventId] = (await deliveriesOf(id)).map((d) => d.eventId);
    const ctx = await orgCtx(orgId);
    const now = at(10 * SECOND);
    // Due later than now (a retry): made due now, not doubled.
    await setDelivery(deliveries[0]!.id, { nextAttemptAt: at(300 * SECOND), leaseUntil: now });
    const forward = await redeliverEvent({ ctx, eventId: eventId!, endpointId: id, now });
    expect(forward.deliveries).toEqual([{ endpoint_id: id, status: "pending", next_attempt_at: formatTimestamp(now) }]);
    expect((await deliveriesOf(id)).map((d) => d.nextAttemptAt)).toEqual([now]);

    // Due earlier than now: stays as early as it was.
    await setDelivery(deliveries[0]!.id, { nextAttemptAt: t0 });
    const kept = await redeliverEvent({ ctx, eventId: eventId!, endpointId: null, now });
    expect(kept.deliveries).toEqual([{ endpoint_id: id, status: "pending", next_attempt_at: formatTimestamp(t0) }]);
    expect(await deliveriesOf(id)).toHaveLength(1);

    // Held by a sender until after now: that attempt is under way, so a new delivery goes behind it.
    await setDelivery(deliveries[0]!.id, { leaseUntil: at(10 * SECOND + 1) });
    const behind = await redeliverEvent({ ctx, eventId: eventId!, endpointId: id, now });
    expect(behind.deliveries).toEqual([{ endpoint_id: id, status: "pending", next_attempt_at: formatTimestamp(now) }]);
    expect((await deliveriesOf(id)).map((d) => [d.status, d.nextAttemptAt])).toEqual([
      ["pending", t0],
      ["pending", now],
    ]);
  });

  it("sends a delivered event again: a new pending delivery, due now", async () => {
    const { orgId, id, deliveries } = await endpointWithDue(1);
    await setDelivery(deliveries[0]!.id, { status: "succeeded", nextAttemptAt: null });
    const now = at(5 * SECOND);
    const res = await redeliverEvent({
      ctx: await orgCtx(orgId),
      eventId: deliveries[0]!.eventId,
      endpointId: id,
      now,
    });
    expect(res.deliveries).toEqual([{ endpoint_id: id, status: "pending", next_attempt_at: formatTimestamp(now) }]);
    expect((await deliveriesOf(id)).map((d) => [d.status, d.nextAttemptAt])).toEqual([
      ["succeeded", null],
      ["pending", now],
    ]);
  });
});

describe("retention", () => {
  it("deletes an event from the instant it is older than 30 days: kept at exactly 30 days", async () => {
    const { orgId } = await makeOrg();
    // An hour ahead: on a shared database another file's purge (at the real time) leaves these two alone.
    const now = new Date(Date.now() + 3_600_000);
    const [kept] = await emit(orgId, 1, new Date(now.getTime() - EVENT_RETENTION_MS));
    const [gone] = await emit(orgId, 1, new Date(now.getTime() - EVENT_RETENTION_MS - 1));
    await purgeExpired({ ctx: await systemCtx(), now });
    const db = await getDb();
    const left = await db
      .select({ id: events.id })
      .from(events)
      .where(inArray(events.id, [kept!, gone!]));
    expect(left.map((e) => e.id)).toEqual([kept]);
  });

  it("deletes at most maxBatches batches of batchSize, oldest first, and goes on while batches are full", async () => {
    const { orgId } = await makeOrg();
    const { id } = await createEndpoint(orgId, "https://hooks.example.test/x");
    const now = new Date();
    const db = await getDb();
    // Far older than anything else in the database, one day apart: the oldest five events and attempts there are.
    const old = (i: number) => new Date(now.getTime() - 1000 * 86_400_000 + i * 86_400_000);
    const written: string[] = [];
    for (let i = 0; i < 5; i++) written.push(...(await emit(orgId, 1, old(i))));
    await db.insert(webhookAttempts).values(
      written.map((eventId, i) => ({
        orgId,
        endpointId: id,
        eventId,
        eventType: "tracker.updated",
        attemptedAt: old(i),
        durationMs: 1,
        succeeded: true,
      })),
    );
    const ctx = await systemCtx();
    const first = await purgeExpired({ ctx, now, batchSize: 2, maxBatches: 2 });
    // Two full batches of two, then the limit: four of each, never the fifth of ours (on a shared database other
    // files' old attempts may be among the four, but never more than four go).
    expect(first).toEqual({ events: 4, attempts: 4 });
    const left = await db.select({ id: events.id }).from(events).where(inArray(events.id, written));
    expect(left.filter((e) => e.id !== written[4])).toEqual([]);
    expect((await attemptsOf(id)).length).toBeGreaterThanOrEqual(1);

    // What is left goes in batches that are not full, which end the purge.
    await purgeExpired({ ctx, now });
    expect(await db.select({ id: events.id }).from(events).where(inArray(events.id, written))).toEqual([]);
    expect(await attemptsOf(id)).toEqual([]);
  });
});
