import { afterEach, describe, expect, it, vi } from "vitest";
import { InngestTestEngine } from "@inngest/test";
import { eq, inArray } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { events, webhookAttempts, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import { inngest } from "@/lib/jobs/inngest";
import { log } from "@/lib/log";
import { currentWebhookLoop, startWebhookLoop } from "@/lib/jobs/scheduler";
import { nudgeInngestOnEvents, sendWebhooksFunction } from "@/lib/jobs/send-webhooks";
import { eventsWritten } from "@/lib/webhooks/nudge";
import { recordEvents } from "@/lib/webhooks/outbox";
import { EVENT_RETENTION_MS } from "@/lib/webhooks/event-rows";
import { purgeExpired } from "@/lib/webhooks/retention";
import { makeOrg, systemCtx } from "./helpers";
import { allowPrivateUrls, createEndpoint, useWebhookReceivers } from "./webhook-helpers";

/** The sender as a job: the Inngest function, the in-process loop, the nudge, and the 30-day retention. */

// Other test files share the database (on Postgres): rounds here only see this file's endpoints.
const mine = vi.hoisted(() => new Set<string>());
vi.mock("@/lib/webhooks/due-deliveries", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/lib/webhooks/due-deliveries")>();
  return {
    ...original,
    planWebhookRound: async (...args: Parameters<typeof original.planWebhookRound>) =>
      (await original.planWebhookRound(...args)).filter((id) => mine.has(id)),
  };
});

const receiver = useWebhookReceivers();
afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  await currentWebhookLoop()?.stop();
});

async function endpointsWithEvents(count: number) {
  const { orgId } = await makeOrg();
  const rs = await Promise.all(Array.from({ length: count }, () => receiver()));
  const ids = [];
  for (const r of rs) {
    const { id } = await createEndpoint(orgId, r.url);
    mine.add(id);
    ids.push(id);
  }
  const db = await getDb();
  const written = await db.transaction((tx) =>
    recordEvents(
      tx,
      ["tracker.created", "tracker.updated", "tracker.delivered"].map((type) => ({
        orgId,
        type: type as "tracker.created",
        resourceId: "trk_1",
        testMode: true,
        data: { id: "trk_1" },
      })),
    ),
  );
  return { receivers: rs, ids, written };
}

describe("Inngest function send-webhooks", () => {
  it("plans, sends every endpoint's due deliveries in steps, and purges", async () => {
    const { receivers: rs, ids, written } = await endpointsWithEvents(2);
    const t = new InngestTestEngine({ function: sendWebhooksFunction });
    const { ctx } = await t.execute();
    const stepIds = (ctx.step.run as unknown as { mock: { calls: [string][] } }).mock.calls.map((c) => c[0]);
    expect(stepIds).toEqual(expect.arrayContaining(["plan", "purge"]));
    expect(stepIds.some((s) => s.startsWith("send-"))).toBe(true);
    // The engine may run a parallel step again on a later pass: a second run finds nothing due, so each receiver
    // still gets each event once, in order.
    await vi.waitFor(() => {
      for (const r of rs) expect(r.received.map((g) => g.headers["webhook-id"])).toEqual(written);
    });
    const db = await getDb();
    const states = await db
      .select({ status: webhookDeliveries.status })
      .from(webhookDeliveries)
      .where(inArray(webhookDeliveries.endpointId, ids));
    expect(states.map((s) => s.status)).toEqual(Array(6).fill("succeeded"));
  });

  it("sends the other endpoints and purges when one endpoint fails, and logs that one", async () => {
    const { receivers: rs, ids, written } = await endpointsWithEvents(2);
    // A signing secret that no longer opens (ENCRYPTION_KEY changed, a row copied): that endpoint's worker throws.
    const db = await getDb();
    await db
      .update(webhookEndpoints)
      .set({ secretEncrypted: "v1.AAAA.AAAA.AAAA" })
      .where(eq(webhookEndpoints.id, ids[0]!));
    const errors = vi.spyOn(log(), "error");
    const t = new InngestTestEngine({ function: sendWebhooksFunction });
    const { result, ctx } = await t.execute();
    const stepIds = (ctx.step.run as unknown as { mock: { calls: [string][] } }).mock.calls.map((c) => c[0]);
    expect(stepIds).toEqual(expect.arrayContaining(["purge", "purge-audit"]));
    expect(result).toMatchObject({ endpoints: 2, sent: 3, succeeded: 3, failed: 0 });
    await vi.waitFor(() => expect(rs[1]!.received.map((g) => g.headers["webhook-id"])).toEqual(written));
    expect(rs[0]!.received).toHaveLength(0);
    expect(errors).toHaveBeenCalledWith(
      expect.objectContaining({ msg: "webhook delivery failed", endpoint_id: ids[0] }),
    );
  });

  it("runs every minute and when events were written, one run at a time", () => {
    const config = sendWebhooksFunction.opts as {
      triggers?: unknown[];
      singleton?: { mode: string };
    };
    expect(config.triggers).toEqual([{ cron: "* * * * *" }, { event: "webhooks/deliver" }]);
    expect(config.singleton).toEqual({ mode: "skip" });
  });

  it("is nudged about a second after events are written, once for a burst", async () => {
    const send = vi.spyOn(inngest, "send").mockResolvedValue({ ids: [] } as never);
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    nudgeInngestOnEvents();
    eventsWritten();
    eventsWritten();
    eventsWritten();
    await vi.advanceTimersByTimeAsync(999);
    expect(send).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(send).toHaveBeenCalledTimes(1);
    expect(send).toHaveBeenCalledWith({ name: "webhooks/deliver", data: {} });
    eventsWritten();
    await vi.advanceTimersByTimeAsync(1000);
    expect(send).toHaveBeenCalledTimes(2);
  });

  it("logs a nudge that could not be sent, at warn, and goes on", async () => {
    const err = new Error("Inngest unreachable");
    vi.spyOn(inngest, "send").mockRejectedValue(err);
    const warn = vi.spyOn(log(), "warn").mockImplementation(() => undefined);
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    nudgeInngestOnEvents();
    eventsWritten();
    await vi.advanceTimersByTimeAsync(1000);
    expect(warn).toHaveBeenCalledWith({ msg: "webhook nudge not sent", err });
  });
});

describe("in-process webhook loop", () => {
  it("starts once per process, also across module reloads, and sends due deliveries on its ticks", async () => {
    const { receivers: rs, written } = await endpointsWithEvents(2);
    // The loop's timers are fake (the database pool is open by now): vi.waitFor moves them on by its interval at
    // every check, and after stop() the test moves them on by many intervals instead of sleeping.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
    const loop = startWebhookLoop({ intervalMs: 100 });
    expect(startWebhookLoop({ intervalMs: 100 })).toBe(loop);
    vi.resetModules();
    const reloaded = await import("@/lib/jobs/scheduler");
    expect(reloaded.startWebhookLoop({ intervalMs: 100 })).toBe(loop);

    await vi.waitFor(
      () => {
        for (const r of rs) expect(r.received.map((g) => g.headers["webhook-id"])).toEqual(written);
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(loop.ticks).toBeGreaterThan(0);
    await loop.stop();
    expect(currentWebhookLoop()).toBeUndefined();
    const ticks = loop.ticks;
    await vi.advanceTimersByTimeAsync(1000);
    expect(loop.ticks).toBe(ticks);
  });

  it("is started by the server start-up unless Inngest is configured or it is turned off", async () => {
    // The modules as start-up loads them (an earlier test reloaded them): their own configuration cache.
    const { resetEnvCache } = await import("@/lib/env");
    const { startServer } = await import("@/lib/start-server");
    vi.stubEnv("TRACKER_REFRESH", "off");
    vi.stubEnv("WEBHOOK_DELIVERY", "off");
    resetEnvCache();
    await startServer();
    expect(currentWebhookLoop()).toBeUndefined();
    vi.stubEnv("WEBHOOK_DELIVERY", "auto");
    vi.stubEnv("INNGEST_SIGNING_KEY", "signkey-test-abc");
    resetEnvCache();
    await startServer();
    expect(currentWebhookLoop()).toBeUndefined();
    vi.stubEnv("INNGEST_SIGNING_KEY", "");
    resetEnvCache();
    await startServer();
    expect(currentWebhookLoop()?.intervalMs).toBe(1000);
    vi.unstubAllEnvs();
    resetEnvCache();
    allowPrivateUrls(true);
  });
});

describe("retention", () => {
  it("stops each kind of row after a batch that came up short: with nothing old, one delete of each", async () => {
    const db = await getDb();
    let deletes = 0;
    const counting = new Proxy(db, {
      get(target, name) {
        if (name === "delete") deletes++;
        const value = Reflect.get(target, name, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    // Nothing is 30 days older than the epoch.
    const purged = await purgeExpired({ ctx: await systemCtx(counting), now: new Date(0), maxBatches: 20 });
    expect(purged).toEqual({ events: 0, attempts: 0 });
    expect(deletes).toBe(2);
  });

  it("deletes events (with their deliveries) and attempts older than 30 days, in batches, and keeps the rest", async () => {
    const { orgId } = await makeOrg();
    const { id } = await createEndpoint(orgId, "https://hooks.example.test/x");
    const db = await getDb();
    const now = new Date();
    const old = new Date(now.getTime() - EVENT_RETENTION_MS - 60_000);
    const write = (at: Date, n: number) =>
      db.transaction((tx) =>
        recordEvents(
          tx,
          Array.from({ length: n }, () => ({
            orgId,
            type: "tracker.updated" as const,
            resourceId: "trk_1",
            testMode: true,
            data: {},
          })),
          at,
        ),
      );
    const expired = await write(old, 5);
    const kept = await write(now, 2);
    const attempt = (eventId: string, attemptedAt: Date) => ({
      orgId,
      endpointId: id,
      eventId,
      eventType: "tracker.updated",
      attemptedAt,
      durationMs: 1,
      succeeded: true,
    });
    await db.insert(webhookAttempts).values([attempt(expired[0]!, old), attempt(kept[0]!, now)]);

    const purged = await purgeExpired({ ctx: await systemCtx(), now, batchSize: 2 });
    expect(purged.events).toBeGreaterThanOrEqual(5);
    const left = await db.select({ id: events.id }).from(events).where(eq(events.orgId, orgId));
    expect(left.map((e) => e.id).sort()).toEqual([...kept].sort());
    const deliveries = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, id));
    expect(deliveries.map((d) => d.eventId).sort()).toEqual([...kept].sort());
    const attempts = await db.select().from(webhookAttempts).where(eq(webhookAttempts.endpointId, id));
    expect(attempts.map((a) => a.eventId)).toEqual([kept[0]]);
  });
});
