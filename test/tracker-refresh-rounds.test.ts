import { afterEach, describe, expect, it, vi } from "vitest";
import { eq, inArray } from "drizzle-orm";
import { sandboxAdapter } from "@/lib/carriers/sandbox/adapter";
import { CarrierError } from "@/lib/carriers/types";
import { getDb } from "@/lib/db/client";
import { carrierConnections, trackers } from "@/lib/db/schema";
import { refreshConnection } from "@/lib/trackers/refresh/refresh-connection";
import { makeOrg, systemCtx } from "./helpers";
import { addSandbox } from "./factories";
import { sandboxNumbers, seedDueTrackers, trackerRows } from "./refresh-helpers";

// How one connection's round spends its calls and what it does with each kind of answer; the round's basics, its
// Retry-After pauses and timeouts are in test/tracker-refresh.test.ts.

afterEach(() => {
  vi.restoreAllMocks();
});

const MINUTE = 60_000;
// pace 1: the sandbox's clock is real time, so retry and back-off times are the real-carrier ones.
const realTime = { pace: 1 };

async function round(connectionId: string) {
  return refreshConnection({ ctx: await systemCtx(await getDb()), connectionId });
}

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
});
