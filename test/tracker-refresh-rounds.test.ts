import { afterEach, describe, expect, it, vi } from "vitest";
import { eq, inArray } from "drizzle-orm";
import { sandboxAdapter } from "@/lib/carriers/sandbox/adapter";
import { CarrierError } from "@/lib/carriers/types";
import { getDb } from "@/lib/db/client";
import { carrierConnections, trackers } from "@/lib/db/schema";
import { refreshConnection } from "@/lib/trackers/refresh/refresh-connection";
import { makeOrg, systemCtx } from "./helpers";
import { addSandbox } from "./factories";
import {
  captureLogs,
  fakeTime,
  sandboxNumbers,
  seedDueTrackers,
  trackerRows,
  untilSettled,
  warmPool,
} from "./refresh-helpers";

// How one connection's round spends its calls and what it does with each kind of answer; the round's basics, its
// Retry-After pauses and timeouts are in test/tracker-refresh.test.ts.

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const MINUTE = 60_000;
// pace 1: the sandbox's clock is real time, so retry and back-off times are the real-carrier ones.
const realTime = { pace: 1 };

async function round(connectionId: string, maxDurationMs?: number) {
  return refreshConnection({ ctx: await systemCtx(await getDb()), connectionId, maxDurationMs });
}

const rateLimited = (details: Record<string, unknown> = {}) =>
  new CarrierError("carrier_rate_limited", "Slow down.", details);

async function backoffOf(connectionId: string) {
  const db = await getDb();
  const [row] = await db.select().from(carrierConnections).where(eq(carrierConnections.id, connectionId));
  return row!.refreshBackoffUntil;
}

describe("a refresh round", () => {
  it("asks one number per call when the connection's batch size is 1, and in batches otherwise", async () => {
    const { key, orgId } = await makeOrg();
    const single = await addSandbox(key, "one-by-one", { ...realTime, refresh_batch_size: 1 });
    const batched = await addSandbox(key, "batched", { ...realTime, refresh_batch_size: 3 });
    const singles = await seedDueTrackers(orgId, single.id, sandboxNumbers(3, 30, 2));
    await seedDueTrackers(orgId, batched.id, sandboxNumbers(6, 31, 2));
    const track = vi.spyOn(sandboxAdapter, "track");
    const trackMany = vi.spyOn(sandboxAdapter, "trackMany");

    expect(await round(single.id)).toMatchObject({ due: 3, refreshed: 3, changed: 3, requests: 3, failed: 0 });
    expect(track).toHaveBeenCalledTimes(3);
    expect(trackMany).not.toHaveBeenCalled();
    for (const row of await trackerRows(singles)) expect(row.status).toBe("in_transit");

    track.mockClear();
    expect(await round(batched.id)).toMatchObject({ due: 6, refreshed: 6, requests: 2 });
    expect(trackMany.mock.calls.map(([, numbers]) => numbers.length)).toEqual([3, 3]);
    expect(track).not.toHaveBeenCalled();
  });

  it("fails only the trackers a batch answer refuses or leaves out, each with its reason", async () => {
    const { key, orgId } = await makeOrg();
    const conn = await addSandbox(key, "partial", { ...realTime, refresh_batch_size: 4 });
    const numbers = sandboxNumbers(4, 30, 2);
    const ids = await seedDueTrackers(orgId, conn.id, numbers);
    const original = sandboxAdapter.trackMany!.bind(sandboxAdapter);
    vi.spyOn(sandboxAdapter, "trackMany").mockImplementation(async (ctx, batch) => {
      const answer = await original(ctx, batch);
      delete answer.data[numbers[0]!];
      answer.data[numbers[1]!] = new CarrierError("tracking_not_found", `Tracking number ${numbers[1]} was not found.`);
      return answer;
    });

    const before = Date.now();
    expect(await round(conn.id)).toMatchObject({ due: 4, refreshed: 2, failed: 2, requests: 1, deferred: 0 });
    const after = Date.now();
    const rows = new Map((await trackerRows(ids)).map((r) => [r.trackingNumber, r]));
    const origin = { carrier_name: "sandbox", carrier_id: "partial", level: "error" };
    expect(rows.get(numbers[0]!)).toMatchObject({
      status: "pending",
      refreshFailures: 1,
      lastError: [{ ...origin, code: "carrier_bad_response", message: `The carrier's answer left out ${numbers[0]}.` }],
    });
    expect(rows.get(numbers[1]!)).toMatchObject({
      status: "pending",
      refreshFailures: 1,
      lastError: [{ ...origin, code: "tracking_not_found", message: `Tracking number ${numbers[1]} was not found.` }],
    });
    for (const n of numbers.slice(0, 2)) {
      // A failure's first retry: 15 minutes on, ±10 %.
      expect(rows.get(n)!.nextRefreshAt!.getTime()).toBeGreaterThanOrEqual(before + 13.5 * MINUTE);
      expect(rows.get(n)!.nextRefreshAt!.getTime()).toBeLessThanOrEqual(after + 16.5 * MINUTE);
    }
    for (const n of numbers.slice(2)) expect(rows.get(n)).toMatchObject({ status: "in_transit", lastError: null });
  });

  it("three carrier outages in a row end the round; the trackers not asked wait five minutes, unfailed", async () => {
    const { key, orgId } = await makeOrg();
    const conn = await addSandbox(key, "down", {
      ...realTime,
      fail_operations: ["track"],
      refresh_batch_size: 1,
      refresh_concurrency: 1,
    });
    const ids = await seedDueTrackers(orgId, conn.id, sandboxNumbers(6, 30, 2));

    const before = Date.now();
    expect(await round(conn.id)).toMatchObject({ due: 6, requests: 3, failed: 3, deferred: 3, refreshed: 0 });
    const after = Date.now();
    const rows = await trackerRows(ids);
    const failed = rows.filter((r) => r.refreshFailures === 1);
    const waiting = rows.filter((r) => r.refreshFailures === 0);
    expect(failed).toHaveLength(3);
    for (const row of failed) expect(row.lastError).toMatchObject([{ code: "carrier_unavailable" }]);
    expect(waiting).toHaveLength(3);
    for (const row of waiting) {
      expect(row.lastError).toBeNull();
      expect(row.nextRefreshAt!.getTime()).toBeGreaterThanOrEqual(before + 5 * MINUTE);
      expect(row.nextRefreshAt!.getTime()).toBeLessThanOrEqual(after + 5 * MINUTE);
    }
  });

  it("a refusal is not an outage: the round goes on through every tracker", async () => {
    const { key, orgId } = await makeOrg();
    const conn = await addSandbox(key, "refusing", { ...realTime, refresh_batch_size: 1, refresh_concurrency: 1 });
    await seedDueTrackers(orgId, conn.id, sandboxNumbers(5, 30, 2));
    vi.spyOn(sandboxAdapter, "track").mockRejectedValue(new CarrierError("tracking_not_found", "Not found."));
    expect(await round(conn.id)).toMatchObject({ due: 5, requests: 5, failed: 5, deferred: 0 });
  });

  it("a 429 without Retry-After backs the connection off for a minute", async () => {
    const { key, orgId } = await makeOrg();
    const conn = await addSandbox(key, "no-retry-after", realTime);
    const ids = await seedDueTrackers(orgId, conn.id, sandboxNumbers(2, 30, 2));
    vi.spyOn(sandboxAdapter, "trackMany").mockRejectedValue(new CarrierError("carrier_rate_limited", "Slow down."));

    const before = Date.now();
    expect(await round(conn.id)).toMatchObject({ due: 2, backed_off: 2, rate_limited_calls: 1, failed: 0 });
    const after = Date.now();
    const until = (await backoffOf(conn.id))!.getTime();
    expect(until).toBeGreaterThanOrEqual(before + MINUTE);
    expect(until).toBeLessThanOrEqual(after + MINUTE);
    for (const row of await trackerRows(ids)) expect(row.nextRefreshAt!.getTime()).toBe(until);
  });

  it.each([
    ["negative", -5],
    ["null", null],
  ])("a %s Retry-After is no Retry-After: a minute's back-off", async (_, seconds) => {
    const { key, orgId } = await makeOrg();
    const conn = await addSandbox(key, "odd-retry-after", realTime);
    await seedDueTrackers(orgId, conn.id, sandboxNumbers(2, 30, 2));
    const trackMany = vi
      .spyOn(sandboxAdapter, "trackMany")
      .mockRejectedValue(rateLimited({ retry_after_seconds: seconds }));

    const before = Date.now();
    expect(await round(conn.id)).toMatchObject({ due: 2, requests: 1, backed_off: 2, rate_limited_calls: 1 });
    expect(trackMany).toHaveBeenCalledTimes(1);
    expect((await backoffOf(conn.id))!.getTime()).toBeGreaterThanOrEqual(before + MINUTE);
  });

  it("waits out a Retry-After of exactly 10 s within the round", async () => {
    const { key, orgId } = await makeOrg();
    const conn = await addSandbox(key, "ten-seconds", realTime);
    const ids = await seedDueTrackers(orgId, conn.id, sandboxNumbers(2, 30, 2));
    const asked: number[] = [];
    const original = sandboxAdapter.trackMany!.bind(sandboxAdapter);
    vi.spyOn(sandboxAdapter, "trackMany").mockImplementation(async (ctx, batch) => {
      asked.push(Date.now());
      if (asked.length === 1) throw rateLimited({ retry_after_seconds: 10 });
      return original(ctx, batch);
    });
    const db = await getDb();
    await warmPool(db);
    fakeTime();
    const report = await untilSettled(refreshConnection({ ctx: await systemCtx(db), connectionId: conn.id }));
    expect(report).toMatchObject({ refreshed: 2, backed_off: 0, rate_limited_calls: 1, requests: 2 });
    expect(asked[1]! - asked[0]!).toBeGreaterThanOrEqual(10_000);
    expect(await backoffOf(conn.id)).toBeNull();
    for (const row of await trackerRows(ids)) expect(row.status).toBe("in_transit");
  });

  it("asks again at once after Retry-After: 0, but at most three times, then backs off for a second", async () => {
    const { key, orgId } = await makeOrg();
    const conn = await addSandbox(key, "retry-now", realTime);
    const ids = await seedDueTrackers(orgId, conn.id, sandboxNumbers(2, 30, 2));
    const limited = () => new CarrierError("carrier_rate_limited", "Slow down.", { retry_after_seconds: 0 });
    const trackMany = vi.spyOn(sandboxAdapter, "trackMany").mockRejectedValue(limited());

    const before = Date.now();
    expect(await round(conn.id)).toMatchObject({ due: 2, requests: 4, rate_limited_calls: 4, backed_off: 2 });
    const after = Date.now();
    expect(trackMany).toHaveBeenCalledTimes(4);
    const until = (await backoffOf(conn.id))!.getTime();
    expect(until).toBeGreaterThanOrEqual(before + 1000);
    expect(until).toBeLessThanOrEqual(after + 1000);

    // Once the carrier answers again (after one more 0-second pause) the trackers are refreshed in the same round.
    const db = await getDb();
    await db.update(carrierConnections).set({ refreshBackoffUntil: null }).where(eq(carrierConnections.id, conn.id));
    await db
      .update(trackers)
      .set({ nextRefreshAt: new Date(Date.now() - 1000) })
      .where(inArray(trackers.id, ids));
    trackMany.mockReset().mockRejectedValueOnce(limited());
    expect(await round(conn.id)).toMatchObject({ refreshed: 2, rate_limited_calls: 1, backed_off: 0, requests: 2 });
    for (const row of await trackerRows(ids)) expect(row.status).toBe("in_transit");
  });

  it("leaves a connection alone while it is backed off, or while another worker holds its round", async () => {
    const { key, orgId } = await makeOrg();
    const conn = await addSandbox(key, "busy", realTime);
    const ids = await seedDueTrackers(orgId, conn.id, sandboxNumbers(2, 30, 2));
    const db = await getDb();
    const trackMany = vi.spyOn(sandboxAdapter, "trackMany");
    const set = (values: Partial<typeof carrierConnections.$inferInsert>) =>
      db.update(carrierConnections).set(values).where(eq(carrierConnections.id, conn.id));

    await set({ refreshBackoffUntil: new Date(Date.now() + MINUTE) });
    expect(await round(conn.id)).toMatchObject({ carrier_name: "sandbox", due: 0, requests: 0 });
    await set({ refreshBackoffUntil: null, refreshLeaseUntil: new Date(Date.now() + MINUTE) });
    expect(await round(conn.id)).toMatchObject({ due: 0, requests: 0 });
    expect(trackMany).not.toHaveBeenCalled();
    for (const row of await trackerRows(ids)) expect(row.refreshedAt).toBeNull();

    // An expired lease (its worker died) is taken over, and released after the round.
    await set({ refreshLeaseUntil: new Date(Date.now() - 1000) });
    expect(await round(conn.id)).toMatchObject({ due: 2, refreshed: 2 });
    const [row] = await db.select().from(carrierConnections).where(eq(carrierConnections.id, conn.id));
    expect(row!.refreshLeaseUntil).toBeNull();
  });

  it("takes at most one minute of the connection's request budget per round", async () => {
    const { key, orgId } = await makeOrg();
    // One call a minute of four numbers: four trackers per round.
    const conn = await addSandbox(key, "one-a-minute", {
      ...realTime,
      refresh_requests_per_minute: 1,
      refresh_batch_size: 4,
    });
    const ids = await seedDueTrackers(orgId, conn.id, sandboxNumbers(6, 30, 2));
    const db = await getDb();
    await warmPool(db);
    fakeTime();
    const report = await untilSettled(refreshConnection({ ctx: await systemCtx(db), connectionId: conn.id }));
    expect(report).toMatchObject({ due: 4, refreshed: 4, requests: 1, deferred: 0 });
    const rows = await trackerRows(ids);
    expect(rows.filter((r) => r.status === "in_transit")).toHaveLength(4);
    // The other two were not claimed: still due, for the next round.
    const waiting = rows.filter((r) => r.status === "pending");
    expect(waiting).toHaveLength(2);
    for (const row of waiting) expect(row.nextRefreshAt!.getTime()).toBeLessThan(Date.now());
  });

  it("stops starting calls after its time (never more than half the lease); the rest are due again at once", async () => {
    const { key, orgId } = await makeOrg();
    const conn = await addSandbox(key, "slow-round", { ...realTime, refresh_batch_size: 1, refresh_concurrency: 1 });
    const ids = await seedDueTrackers(orgId, conn.id, sandboxNumbers(6, 30, 2));
    // Only the round's stopwatch is fake: each answer takes 50 s of it.
    vi.useFakeTimers({ toFake: ["performance"] });
    vi.advanceTimersByTime(1_000);
    const original = sandboxAdapter.track.bind(sandboxAdapter);
    vi.spyOn(sandboxAdapter, "track").mockImplementation(async (ctx, number) => {
      vi.advanceTimersByTime(50_000);
      return original(ctx, number);
    });

    // Ten minutes asked, two and a half given: calls start at 0, 50, 100 and 150 s; at 200 s the round stops.
    const report = await round(conn.id, 10 * MINUTE);
    expect(report).toMatchObject({ due: 6, requests: 4, refreshed: 4, deferred: 2, failed: 0, duration_ms: 200_000 });
    const left = (await trackerRows(ids)).filter((r) => r.status === "pending");
    expect(left).toHaveLength(2);
    for (const row of left) {
      expect(row.refreshFailures).toBe(0);
      expect(row.nextRefreshAt!.getTime()).toBeLessThanOrEqual(Date.now());
    }
  });

  it("reports the round's duration, also of a round it skips", async () => {
    const { key } = await makeOrg();
    const conn = await addSandbox(key, "timed", realTime);
    const db = await getDb();
    await db
      .update(carrierConnections)
      .set({ refreshBackoffUntil: new Date(Date.now() + MINUTE) })
      .where(eq(carrierConnections.id, conn.id));
    vi.useFakeTimers({ toFake: ["performance"] });
    vi.advanceTimersByTime(5_000);
    expect(await round(conn.id)).toMatchObject({ due: 0, duration_ms: 0 });
  });

  it("runs a connection whose back-off ends right now", async () => {
    const { key, orgId } = await makeOrg();
    const conn = await addSandbox(key, "backoff-ends", realTime);
    await seedDueTrackers(orgId, conn.id, sandboxNumbers(2, 30, 2));
    const now = new Date();
    const db = await getDb();
    await db.update(carrierConnections).set({ refreshBackoffUntil: now }).where(eq(carrierConnections.id, conn.id));
    vi.useFakeTimers({ toFake: ["Date"], now });
    expect(await round(conn.id)).toMatchObject({ due: 2, refreshed: 2 });
  });

  it("holds the connection and its claimed trackers for five minutes while the round runs", async () => {
    const { key, orgId } = await makeOrg();
    const conn = await addSandbox(key, "leased", realTime);
    const ids = await seedDueTrackers(orgId, conn.id, sandboxNumbers(2, 30, 2));
    const now = new Date();
    vi.useFakeTimers({ toFake: ["Date"], now });
    const db = await getDb();
    const during: { connection: Date | null; trackers: (Date | null)[] }[] = [];
    const original = sandboxAdapter.trackMany!.bind(sandboxAdapter);
    vi.spyOn(sandboxAdapter, "trackMany").mockImplementation(async (ctx, batch) => {
      const [row] = await db.select().from(carrierConnections).where(eq(carrierConnections.id, conn.id));
      during.push({
        connection: row!.refreshLeaseUntil,
        trackers: (await trackerRows(ids)).map((t) => t.nextRefreshAt),
      });
      return original(ctx, batch);
    });
    expect(await round(conn.id)).toMatchObject({ refreshed: 2 });
    const leaseEnd = new Date(now.getTime() + 5 * MINUTE);
    expect(during).toEqual([{ connection: leaseEnd, trackers: [leaseEnd, leaseEnd] }]);
    const [row] = await db.select().from(carrierConnections).where(eq(carrierConnections.id, conn.id));
    expect(row!.refreshLeaseUntil).toBeNull();
  });

  it("counts as changed only the trackers whose answer changed something", async () => {
    const { key, orgId } = await makeOrg();
    const conn = await addSandbox(key, "unchanged", realTime);
    const ids = await seedDueTrackers(orgId, conn.id, sandboxNumbers(3, 30, 2));
    vi.useFakeTimers({ toFake: ["Date"], now: new Date() });
    expect(await round(conn.id)).toMatchObject({ refreshed: 3, changed: 3 });
    const db = await getDb();
    await db
      .update(trackers)
      .set({ nextRefreshAt: new Date(Date.now() - 1000) })
      .where(inArray(trackers.id, ids));
    // The same moment asked again: the same events, nothing new.
    expect(await round(conn.id)).toMatchObject({ refreshed: 3, changed: 0 });
  });

  it("a sandbox on a fast clock has its trackers' next refreshes, retries and outage waits that much sooner", async () => {
    const { key, orgId } = await makeOrg();
    // pace 60: an hour of the parcel's journey per real minute.
    const partial = await addSandbox(key, "fast-partial", { pace: 60, refresh_batch_size: 4 });
    const down = await addSandbox(key, "fast-down", {
      pace: 60,
      fail_operations: ["track"],
      refresh_batch_size: 1,
      refresh_concurrency: 1,
    });
    const numbers = sandboxNumbers(3, 30, 2);
    const partialIds = await seedDueTrackers(orgId, partial.id, numbers);
    const downIds = await seedDueTrackers(orgId, down.id, sandboxNumbers(5, 31, 2));
    const original = sandboxAdapter.trackMany!.bind(sandboxAdapter);
    vi.spyOn(sandboxAdapter, "trackMany").mockImplementation(async (ctx, batch) => {
      const answer = await original(ctx, batch);
      delete answer.data[numbers[0]!];
      return answer;
    });
    const now = new Date();
    vi.useFakeTimers({ toFake: ["Date"], now });
    const within = (at: Date | null, ms: number) => {
      expect(at!.getTime()).toBeGreaterThanOrEqual(now.getTime() + ms * 0.9);
      expect(at!.getTime()).toBeLessThanOrEqual(now.getTime() + ms * 1.1);
    };

    expect(await round(partial.id)).toMatchObject({ refreshed: 2, failed: 1 });
    for (const row of await trackerRows(partialIds)) {
      // A first failure's retry, 15 minutes, is 15 s; an in-transit tracker's hour is a minute.
      if (row.trackingNumber === numbers[0]) within(row.nextRefreshAt, 15_000);
      else within(row.nextRefreshAt, MINUTE);
    }

    expect(await round(down.id)).toMatchObject({ requests: 3, failed: 3, deferred: 2 });
    for (const row of await trackerRows(downIds)) {
      if (row.refreshFailures === 1) within(row.nextRefreshAt, 15_000);
      // The five minutes an outage makes the others wait are five seconds.
      else expect(row.nextRefreshAt).toEqual(new Date(now.getTime() + 5_000));
    }
  });

  it("trackers put off by a 429 and left when the round stops for an outage count as backed off, not deferred", async () => {
    const { key, orgId } = await makeOrg();
    const conn = await addSandbox(key, "limited-then-down", {
      ...realTime,
      refresh_batch_size: 1,
      refresh_concurrency: 1,
    });
    const numbers = sandboxNumbers(4, 30, 2);
    await seedDueTrackers(orgId, conn.id, numbers);
    const track = vi
      .spyOn(sandboxAdapter, "track")
      .mockRejectedValueOnce(rateLimited({ retry_after_seconds: 0 }))
      .mockRejectedValue(new CarrierError("carrier_unavailable", "Down."));

    // The first number is put off to the end of the queue, the next three fail: the round stops with it unasked.
    expect(await round(conn.id)).toMatchObject({
      due: 4,
      requests: 4,
      rate_limited_calls: 1,
      failed: 3,
      backed_off: 1,
      deferred: 0,
    });
    expect(track.mock.calls.map(([, n]) => n)).toEqual([...numbers].sort());
  });

  it("a worker waiting its turn does not call once another worker's 429 has ended the round", async () => {
    const { key, orgId } = await makeOrg();
    // Two workers, calls a second apart.
    const conn = await addSandbox(key, "stopped", {
      ...realTime,
      refresh_batch_size: 1,
      refresh_concurrency: 2,
      refresh_requests_per_minute: 60,
    });
    await seedDueTrackers(orgId, conn.id, sandboxNumbers(2, 30, 2));
    const track = vi.spyOn(sandboxAdapter, "track").mockRejectedValue(rateLimited({ retry_after_seconds: 120 }));
    const db = await getDb();
    await warmPool(db);
    fakeTime();
    const report = await untilSettled(refreshConnection({ ctx: await systemCtx(db), connectionId: conn.id }));
    expect(report).toMatchObject({ due: 2, requests: 1, rate_limited_calls: 1, backed_off: 2 });
    expect(track).toHaveBeenCalledTimes(1);
  });

  it("a batch the database fails to save is deferred, logged, and due again at once", async () => {
    const { key, orgId } = await makeOrg();
    const conn = await addSandbox(key, "unsaved", realTime);
    const ids = await seedDueTrackers(orgId, conn.id, sandboxNumbers(3, 30, 2));
    const db = await getDb();
    const failing = new Proxy(db, {
      get(target, prop, receiver) {
        if (prop === "transaction") return () => Promise.reject(new Error("connection reset"));
        return Reflect.get(target, prop, receiver);
      },
    });
    const ctx = await systemCtx(failing);
    const error = vi.spyOn(ctx.log, "error");
    const now = new Date();
    vi.useFakeTimers({ toFake: ["Date"], now });

    expect(await refreshConnection({ ctx, connectionId: conn.id })).toMatchObject({
      due: 3,
      requests: 1,
      refreshed: 0,
      failed: 0,
      deferred: 3,
    });
    expect(error).toHaveBeenCalledWith(
      expect.objectContaining({ msg: "tracker refresh could not save a batch", connection_id: conn.id }),
    );
    for (const row of await trackerRows(ids)) {
      expect(row).toMatchObject({ status: "pending", refreshFailures: 0, nextRefreshAt: now });
    }
  });

  it("asks the carrier for the next batch while the last answer is written, one write per worker", async () => {
    const { key, orgId } = await makeOrg();
    const conn = await addSandbox(key, "overlapped", { ...realTime, refresh_batch_size: 2, refresh_concurrency: 1 });
    const ids = await seedDueTrackers(orgId, conn.id, sandboxNumbers(6, 30, 2));
    const trackMany = vi.spyOn(sandboxAdapter, "trackMany");
    const db = await getDb();
    let writing = 0;
    let mostWriting = 0;
    const callsDuringWrites: number[] = [];
    const held = new Proxy(db, {
      get(target, prop, receiver) {
        if (prop !== "transaction") return Reflect.get(target, prop, receiver);
        return async (...args: Parameters<typeof db.transaction>) => {
          writing++;
          mostWriting = Math.max(mostWriting, writing);
          const callsBefore = trackMany.mock.calls.length;
          // The first two writes take as long as the worker needs to ask for its next batch (10 s at most: a worker
          // that waits for the write first never does); the last has no next batch to wait for.
          for (
            let waited = 0;
            callsBefore < 3 && trackMany.mock.calls.length === callsBefore && waited < 10_000;
            waited += 5
          )
            await new Promise((r) => setTimeout(r, 5));
          callsDuringWrites.push(trackMany.mock.calls.length - callsBefore);
          try {
            return await db.transaction(...args);
          } finally {
            writing--;
          }
        };
      },
    });

    const report = await refreshConnection({ ctx: await systemCtx(held), connectionId: conn.id });

    expect(report).toMatchObject({ due: 6, requests: 3, refreshed: 6, failed: 0, deferred: 0 });
    // The first two writes each saw the next call start; the last had none to wait for.
    expect(callsDuringWrites).toEqual([1, 1, 0]);
    expect(mostWriting).toBe(1);
    // Every write landed before the round answered.
    for (const row of await trackerRows(ids)) expect(row.status).toBe("in_transit");
  });

  it("a worker that fails stops the others, and the round ends only once their writes have landed", async () => {
    const { key, orgId } = await makeOrg();
    const conn = await addSandbox(key, "failing-worker", {
      ...realTime,
      refresh_batch_size: 1,
      refresh_concurrency: 2,
    });
    const ids = await seedDueTrackers(orgId, conn.id, sandboxNumbers(5, 30, 2));
    const real = sandboxAdapter.track.bind(sandboxAdapter);
    const track = vi.spyOn(sandboxAdapter, "track");
    let failing = false;
    let landed = 0;
    let secondAsked!: () => void;
    const second = new Promise<void>((resolve) => (secondAsked = resolve));
    // The first call fails once the second is out; writing down that failure then fails too (the database, once).
    track
      .mockImplementationOnce(async () => {
        await second;
        throw new CarrierError("carrier_unavailable", "The carrier is down.");
      })
      .mockImplementationOnce(async (...args) => {
        failing = true;
        secondAsked();
        return real(...args);
      });
    const db = await getDb();
    const flaky = new Proxy(db, {
      get(target, prop, receiver) {
        if (prop === "update")
          return (table: unknown) => {
            if (failing && table === trackers) {
              // Once: a round that went on past the failure would write the rest without trouble.
              failing = false;
              throw new Error("the database went away");
            }
            return target.update(table as typeof trackers);
          };
        if (prop === "transaction")
          return async (...args: Parameters<typeof db.transaction>) => {
            await new Promise((resolve) => setTimeout(resolve, 300));
            const out = await target.transaction(...args);
            landed++;
            return out;
          };
        return Reflect.get(target, prop, receiver);
      },
    });

    await expect(refreshConnection({ ctx: await systemCtx(flaky), connectionId: conn.id })).rejects.toThrow(
      "the database went away",
    );
    // The other worker stopped (it may have started one more call before the failure reached it, never all five),
    // and each of its writes had landed before the round answered.
    const asked = track.mock.calls.length;
    expect(asked).toBeGreaterThanOrEqual(2);
    expect(asked).toBeLessThanOrEqual(3);
    expect(landed).toBe(asked - 1);
    const rows = await trackerRows(ids);
    expect(rows.filter((r) => r.status === "in_transit")).toHaveLength(asked - 1);
  });

  it("logs each carrier call with its operation: multi_track for a batch, track for one number", async () => {
    const { key, orgId } = await makeOrg();
    const batched = await addSandbox(key, "logged-batch", realTime);
    const single = await addSandbox(key, "logged-single", { ...realTime, refresh_batch_size: 1 });
    await seedDueTrackers(orgId, batched.id, sandboxNumbers(2, 30, 2));
    await seedDueTrackers(orgId, single.id, sandboxNumbers(1, 31, 2));
    const logs = captureLogs();
    try {
      await round(batched.id);
      await round(single.id);
    } finally {
      logs.restore();
    }
    const calls = logs.lines.filter((l) => l.msg === "carrier_operation");
    expect(calls.map((l) => [l.carrier_id, l.operation])).toEqual([
      ["logged-batch", "multi_track"],
      ["logged-single", "track"],
    ]);
  });

  it("a connection whose carrier the service no longer has hands its trackers to the organization's sandbox", async () => {
    const { key, orgId } = await makeOrg();
    const conn = await addSandbox(key, "retired", realTime);
    const ids = await seedDueTrackers(orgId, conn.id, sandboxNumbers(2, 30, 2));
    const db = await getDb();
    await db
      .update(carrierConnections)
      .set({ carrierName: "retired-carrier" })
      .where(eq(carrierConnections.id, conn.id));
    expect(await round(conn.id)).toMatchObject({ carrier_name: null, due: 2, deferred: 2, failed: 0, requests: 0 });
    for (const row of await trackerRows(ids)) expect(row.carrierConnectionId).not.toBe(conn.id);
  });

  it("three garbled answers in a row are an outage too (module loaded afresh in the test)", async () => {
    const { key, orgId } = await makeOrg();
    const conn = await addSandbox(key, "garbled", { ...realTime, refresh_batch_size: 1, refresh_concurrency: 1 });
    await seedDueTrackers(orgId, conn.id, sandboxNumbers(5, 30, 2));
    // A fresh copy of the round's module, so its constants are evaluated here (a mutation tool sees them used).
    vi.resetModules();
    const fresh = await import("@/lib/trackers/refresh/refresh-connection");
    const { sandboxAdapter: adapter } = await import("@/lib/carriers/sandbox/adapter");
    vi.spyOn(adapter, "track").mockRejectedValue(new SyntaxError("Unexpected token < in JSON"));
    const report = await fresh.refreshConnection({ ctx: await systemCtx(), connectionId: conn.id });
    expect(report).toMatchObject({ due: 5, requests: 3, failed: 3, deferred: 2 });
  });
});
