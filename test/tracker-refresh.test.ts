import { afterEach, describe, expect, it, vi } from "vitest";
import { eq, sql } from "drizzle-orm";
import { sandboxAdapter } from "@/lib/carriers/sandbox/adapter";
import { CarrierError } from "@/lib/carriers/types";
import { getDb } from "@/lib/db/client";
import { carrierConnections, shipments, trackers } from "@/lib/db/schema";
import { claimDueTrackers, planRefresh, rescheduleTrackers } from "@/lib/trackers/refresh/due-trackers";
import { refreshConnection } from "@/lib/trackers/refresh/refresh-connection";
import { REFRESH_INTERVAL_MS, RETIRE_AFTER_MS } from "@/lib/trackers/tracking-rules";
import { makeOrg, systemCtx } from "./helpers";
import { addSandbox, createShipmentFor, purchaseFor } from "./factories";
import { fakeTime, sandboxNumbers, seedDueTrackers, trackerRows, untilSettled, warmPool } from "./refresh-helpers";

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

// pace 1: the sandbox's clock is real time, so due times are the real-carrier intervals.
const realTime = { pace: 1 };

describe("background refresh core", () => {
  it("selects only due trackers and sets the next due time from the new status", async () => {
    const { key, orgId } = await makeOrg();
    const conn = await addSandbox(key, "clock", realTime);
    const inTransit = sandboxNumbers(3, 30, 2); // stops at the sort hub: in_transit
    const outForDelivery = sandboxNumbers(2, 60, 3);
    const delivered = sandboxNumbers(2, 24 * 5, 0);
    const due = await seedDueTrackers(orgId, conn.id, [...inTransit, ...outForDelivery, ...delivered]);
    const db = await getDb();
    const later = await seedDueTrackers(orgId, conn.id, [sandboxNumbers(4, 30, 2)[3]!], {
      nextRefreshAt: new Date(Date.now() + 3_600_000),
    });

    const plan = (await planRefresh({ ctx: await systemCtx(db), now: new Date() })).filter(
      (p) => p.connectionId === conn.id,
    );
    expect(plan).toEqual([{ connectionId: conn.id, due: 7 }]);

    const before = Date.now();
    const report = await refreshConnection({ ctx: await systemCtx(db), connectionId: conn.id });
    expect(report).toMatchObject({
      due: 7,
      refreshed: 7,
      changed: 7,
      failed: 0,
      backed_off: 0,
      deferred: 0,
      requests: 1,
    });
    const rows = await trackerRows([...due, ...later]);
    const byNumber = new Map(rows.map((r) => [r.trackingNumber, r]));
    const dueIn = (n: string) => byNumber.get(n)!.nextRefreshAt!.getTime() - before;
    for (const n of inTransit) {
      expect(byNumber.get(n)!.status).toBe("in_transit");
      expect(dueIn(n)).toBeGreaterThanOrEqual(REFRESH_INTERVAL_MS.in_transit * 0.9 - 1000);
      expect(dueIn(n)).toBeLessThanOrEqual(REFRESH_INTERVAL_MS.in_transit * 1.1 + 1000);
    }
    for (const n of outForDelivery) {
      expect(byNumber.get(n)!.status).toBe("out_for_delivery");
      expect(dueIn(n)).toBeLessThanOrEqual(REFRESH_INTERVAL_MS.out_for_delivery * 1.1 + 1000);
    }
    for (const n of delivered) expect(byNumber.get(n)).toMatchObject({ status: "delivered", nextRefreshAt: null });
    const untouched = rows.find((r) => r.id === later[0])!;
    expect(untouched).toMatchObject({ status: "pending", refreshedAt: null });
    expect(
      (await planRefresh({ ctx: await systemCtx(db), now: new Date() })).filter((p) => p.connectionId === conn.id),
    ).toEqual([]);
  });

  it("a claim takes the oldest due trackers and moves their due time to the end of the lease", async () => {
    const { key, orgId } = await makeOrg();
    const conn = await addSandbox(key, "claims", realTime);
    const now = new Date();
    const at = (msAgo: number) => ({ nextRefreshAt: new Date(now.getTime() - msAgo) });
    const [oldest] = await seedDueTrackers(orgId, conn.id, sandboxNumbers(1, 30, 2), at(30_000));
    const [older] = await seedDueTrackers(orgId, conn.id, [sandboxNumbers(2, 30, 2)[1]!], at(20_000));
    const [newest] = await seedDueTrackers(orgId, conn.id, [sandboxNumbers(3, 30, 2)[2]!], at(0));
    const [notDue] = await seedDueTrackers(orgId, conn.id, [sandboxNumbers(4, 30, 2)[3]!], at(-1));
    const db = await getDb();
    const leaseUntil = new Date(now.getTime() + 300_000);

    const first = await claimDueTrackers(db, conn.id, 2, now, leaseUntil);
    expect(new Set(first.map((r) => r.id))).toEqual(new Set([oldest, older]));
    for (const row of first) expect(row.nextRefreshAt).toEqual(leaseUntil);
    const stored = new Map((await trackerRows([oldest!, older!, newest!, notDue!])).map((r) => [r.id, r]));
    expect(stored.get(oldest!)!.nextRefreshAt).toEqual(leaseUntil);
    expect(stored.get(older!)!.nextRefreshAt).toEqual(leaseUntil);
    expect(stored.get(newest!)!.nextRefreshAt).toEqual(now); // due exactly now: still due, not yet claimed

    // Claimed rows are no longer due: the next claim finds only the one left, never the future one.
    const second = await claimDueTrackers(db, conn.id, 10, now, leaseUntil);
    expect(second.map((r) => r.id)).toEqual([newest]);
    expect(await claimDueTrackers(db, conn.id, 10, now, leaseUntil)).toEqual([]);

    // Handing them back makes them due at the time given.
    await rescheduleTrackers(db, first, now);
    expect((await trackerRows([oldest!, older!])).map((r) => r.nextRefreshAt)).toEqual([now, now]);
  });

  it("a claim hands its trackers back in tracking-number order, whatever order they were stored in", async () => {
    const { key, orgId } = await makeOrg();
    const conn = await addSandbox(key, "ordered", realTime);
    const numbers = sandboxNumbers(5, 30, 2);
    for (const n of [...numbers].reverse()) await seedDueTrackers(orgId, conn.id, [n]);
    const now = new Date();
    const claimed = await claimDueTrackers(await getDb(), conn.id, 10, now, new Date(now.getTime() + 300_000));
    expect(claimed.map((r) => r.trackingNumber)).toEqual([...numbers].sort());
  });

  // PGlite has one connection, so no other worker can hold a lock there.
  it.skipIf(!process.env.DATABASE_URL)(
    "a claim skips the trackers another worker holds locked instead of waiting for them (Postgres)",
    async () => {
      const { key, orgId } = await makeOrg();
      const conn = await addSandbox(key, "locked", realTime);
      const [busy, ...free] = await seedDueTrackers(orgId, conn.id, sandboxNumbers(3, 30, 2));
      const db = await getDb();
      let release!: () => void;
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const other = db.transaction(async (tx) => {
        await tx.select().from(trackers).where(eq(trackers.id, busy!)).for("update");
        locked();
        await new Promise<void>((resolve) => (release = resolve));
      });
      await isLocked;
      const now = new Date();
      try {
        // Waiting for the lock would fail this claim (the other worker only lets go after it).
        const claimed = await db.transaction(async (tx) => {
          await tx.execute(sql`set local lock_timeout = '5s'`);
          return claimDueTrackers(tx, conn.id, 10, now, new Date(now.getTime() + 300_000));
        });
        expect(new Set(claimed.map((r) => r.id))).toEqual(new Set(free));
      } finally {
        release();
        await other;
      }
    },
  );

  it("two workers at once never refresh the same tracker twice", async () => {
    const { key, orgId } = await makeOrg();
    const conn = await addSandbox(key, "busy", { ...realTime, latency_ms: 20, refresh_batch_size: 5 });
    const numbers = sandboxNumbers(60, 30, 2);
    await seedDueTrackers(orgId, conn.id, numbers);
    const asked: string[] = [];
    const original = sandboxAdapter.trackMany!.bind(sandboxAdapter);
    vi.spyOn(sandboxAdapter, "trackMany").mockImplementation(async (ctx, batch) => {
      asked.push(...batch);
      return original(ctx, batch);
    });
    const db = await getDb();
    await warmPool(db);
    // The carrier's latency (which keeps both workers' rounds open at once) runs on fake timers.
    fakeTime();
    const [a, b] = await untilSettled(
      Promise.all([
        refreshConnection({ ctx: await systemCtx(db), connectionId: conn.id }),
        refreshConnection({ ctx: await systemCtx(db), connectionId: conn.id }),
      ]),
    );
    expect(a.refreshed + b.refreshed).toBe(60);
    expect(a.due + b.due).toBe(60);
    expect(asked).toHaveLength(60);
    expect(new Set(asked).size).toBe(60);
  });

  it("waits out a short Retry-After and still refreshes every tracker in the round", async () => {
    const { key, orgId } = await makeOrg();
    // Every second call answers carrier_rate_limited with retry_after_seconds 1.
    const conn = await addSandbox(key, "throttled", { ...realTime, rate_limit_every: 2, refresh_batch_size: 4 });
    const ids = await seedDueTrackers(orgId, conn.id, sandboxNumbers(12, 30, 2));
    const calls: { at: number; limited: boolean }[] = [];
    const original = sandboxAdapter.trackMany!.bind(sandboxAdapter);
    vi.spyOn(sandboxAdapter, "trackMany").mockImplementation(async (ctx, batch) => {
      const at = Date.now();
      try {
        return await original(ctx, batch);
      } catch (err) {
        calls.push({ at, limited: true });
        throw err;
      } finally {
        if (calls.at(-1)?.at !== at) calls.push({ at, limited: false });
      }
    });
    fakeTime();
    const report = await untilSettled(refreshConnection({ ctx: await systemCtx(), connectionId: conn.id }));
    expect(report).toMatchObject({ refreshed: 12, failed: 0, backed_off: 0 });
    expect(report.rate_limited_calls).toBeGreaterThan(0);
    expect(report.requests).toBe(3 + report.rate_limited_calls);
    // Every call after a 429 waited out its whole second.
    const firstLimited = calls.findIndex((c) => c.limited);
    expect(firstLimited).toBeGreaterThanOrEqual(0);
    for (const later of calls.slice(firstLimited + 1)) {
      expect(later.at - calls[firstLimited]!.at).toBeGreaterThanOrEqual(1000);
    }
    for (const row of await trackerRows(ids)) expect(row.status).toBe("in_transit");
  });

  it("a long Retry-After backs the connection off; its trackers are rescheduled, not dropped, and refreshed later", async () => {
    const { key, orgId } = await makeOrg();
    const conn = await addSandbox(key, "quota", { ...realTime, refresh_batch_size: 2, refresh_concurrency: 1 });
    const ids = await seedDueTrackers(orgId, conn.id, sandboxNumbers(6, 30, 2));
    vi.spyOn(sandboxAdapter, "trackMany").mockRejectedValueOnce(
      new CarrierError("carrier_rate_limited", "Quota exceeded", { retry_after_seconds: 120 }),
    );
    const db = await getDb();
    // The clock stands still: the back-off ends exactly the Retry-After from now.
    vi.useFakeTimers({ toFake: ["Date"] });
    const started = Date.now();
    const report = await refreshConnection({ ctx: await systemCtx(db), connectionId: conn.id });
    expect(report).toMatchObject({ refreshed: 0, failed: 0, backed_off: 6, rate_limited_calls: 1 });
    const [row] = await db.select().from(carrierConnections).where(eq(carrierConnections.id, conn.id));
    expect(row!.refreshBackoffUntil!.getTime()).toBe(started + 120_000);
    for (const t of await trackerRows(ids)) {
      expect(t.nextRefreshAt!.getTime()).toBe(row!.refreshBackoffUntil!.getTime());
      expect(t.refreshFailures).toBe(0);
    }
    // While backed off the connection is left out of rounds.
    expect(
      (await planRefresh({ ctx: await systemCtx(db), now: new Date() })).some((p) => p.connectionId === conn.id),
    ).toBe(false);
    const { GET } = await import("@/app/v1/connections/[id]/route");
    const { call } = await import("./helpers");
    const shown = await call(GET, "GET", `/v1/connections/${conn.id}`, { key, params: { id: conn.id } });
    expect(shown.body.refresh_backoff_until).toEqual(expect.any(String));

    const after = () => new Date(Date.now() + 130_000);
    expect(
      (await planRefresh({ ctx: await systemCtx(db), now: after() })).find((p) => p.connectionId === conn.id)?.due,
    ).toBe(6);
    vi.useFakeTimers({ toFake: ["Date"], now: after() });
    const later = await refreshConnection({ ctx: await systemCtx(db), connectionId: conn.id });
    expect(later.refreshed).toBe(6);
  });

  it("a carrier timing out does not hold up another connection's trackers", async () => {
    const { key, orgId } = await makeOrg();
    const slow = await addSandbox(key, "slow", {
      ...realTime,
      latency_ms: 5000,
      deadline_ms: 200,
      refresh_batch_size: 1,
    });
    const fast = await addSandbox(key, "fast", realTime);
    const slowIds = await seedDueTrackers(orgId, slow.id, sandboxNumbers(8, 30, 2));
    const fastIds = await seedDueTrackers(orgId, fast.id, sandboxNumbers(8, 31, 2));
    const db = await getDb();
    await warmPool(db);
    fakeTime();
    const [s, f] = await untilSettled(
      Promise.all([
        refreshConnection({ ctx: await systemCtx(db), connectionId: slow.id }),
        refreshConnection({ ctx: await systemCtx(db), connectionId: fast.id }),
      ]),
    );
    expect(f).toMatchObject({ refreshed: 8, failed: 0 });
    // Three timeouts in a row end the slow connection's round; the rest wait for the next one.
    expect(s.refreshed).toBe(0);
    expect(s.failed + s.deferred).toBe(8);
    expect(s.deferred).toBeGreaterThan(0);
    expect(s.requests).toBeLessThan(8);
    for (const t of await trackerRows(fastIds)) expect(t.status).toBe("in_transit");
    for (const t of await trackerRows(slowIds)) {
      expect(t.status).toBe("pending");
      expect(t.nextRefreshAt!.getTime()).toBeGreaterThan(Date.now());
    }
  });

  it("retires a tracker that has heard nothing for 90 days, even while its carrier fails", async () => {
    const { key, orgId } = await makeOrg();
    const conn = await addSandbox(key, "silent", { ...realTime, fail_operations: ["track"] });
    const old = new Date(Date.now() - RETIRE_AFTER_MS - 86_400_000);
    const [id] = await seedDueTrackers(orgId, conn.id, sandboxNumbers(1, 30, 2), {
      createdAt: old,
      lastEventAt: old,
      status: "in_transit",
    });
    const report = await refreshConnection({ ctx: await systemCtx(), connectionId: conn.id });
    expect(report.failed).toBe(1);
    const [row] = await trackerRows([id!]);
    expect(row).toMatchObject({ status: "unknown", nextRefreshAt: null });
    expect(row!.retiredAt).not.toBeNull();
  });

  it("the shipment follows its tracker when the background refresh moves it", async () => {
    const { key } = await makeOrg();
    const s = await createShipmentFor(key);
    const bought = (await purchaseFor(key, s)).body.shipment;
    const db = await getDb();
    await db
      .update(trackers)
      .set({ nextRefreshAt: new Date(Date.now() - 1000) })
      .where(eq(trackers.id, bought.tracker_id));
    const [tracker] = await trackerRows([bought.tracker_id]);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 3 * 86_400_000 });
    const report = await refreshConnection({ ctx: await systemCtx(db), connectionId: tracker!.carrierConnectionId });
    expect(report.refreshed).toBeGreaterThanOrEqual(1);
    const [row] = await db.select().from(shipments).where(eq(shipments.id, s.id));
    expect(row!.status).toBe("delivered");
  });
});
