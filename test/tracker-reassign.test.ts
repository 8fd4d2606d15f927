import { afterEach, describe, expect, it, vi } from "vitest";
import { and, eq } from "drizzle-orm";
import { DELETE as removeConnection, PATCH as patchConnection } from "@/app/v1/connections/[id]/route";
import { getDb } from "@/lib/db/client";
import { carrierConnections } from "@/lib/db/schema";
import { planRefresh } from "@/lib/trackers/refresh/due-trackers";
import { reassignOrphanTrackers } from "@/lib/trackers/refresh/reassign";
import { refreshConnection } from "@/lib/trackers/refresh/refresh-connection";
import { call, makeOrg, systemCtx } from "./helpers";
import { addSandbox } from "./factories";
import { sandboxNumbers, seedDueTrackers, trackerRows } from "./refresh-helpers";

const MINUTE = 60_000;

// A test can make looking up the new connection fail (a database error, not "no such connection").
const lookup = vi.hoisted(() => ({ failure: null as Error | null }));
vi.mock("@/lib/connections/select-connections", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/lib/connections/select-connections")>();
  return {
    ...original,
    connectionForCarrier: async (...args: Parameters<typeof original.connectionForCarrier>) => {
      if (lookup.failure) throw lookup.failure;
      return original.connectionForCarrier(...args);
    },
  };
});

afterEach(() => {
  lookup.failure = null;
  vi.useRealTimers();
});

/** The organization's own sandbox connection, made with it. */
async function defaultSandbox(orgId: string): Promise<string> {
  const db = await getDb();
  const [row] = await db
    .select({ id: carrierConnections.id })
    .from(carrierConnections)
    .where(and(eq(carrierConnections.orgId, orgId), eq(carrierConnections.carrierId, "sandbox")));
  return row!.id;
}

async function deactivate(key: string, id: string) {
  const res = await call(patchConnection, "PATCH", "", { key, params: { id }, body: { active: false } });
  expect(res.status).toBe(200);
}

/** A round for the connection, and the plan that would start it. */
async function roundFor(connectionId: string) {
  const ctx = await systemCtx(await getDb());
  const planned = (await planRefresh({ ctx, now: new Date() })).find((p) => p.connectionId === connectionId);
  return { planned, report: await refreshConnection({ ctx, connectionId }) };
}

describe("trackers whose connection is gone", () => {
  it("move to the organization's other active connection of the carrier and are due at once", async () => {
    const { key, orgId } = await makeOrg();
    const old = await addSandbox(key, "old-account", { pace: 1 });
    const ids = await seedDueTrackers(orgId, old.id, sandboxNumbers(3, 30, 2));
    await deactivate(key, old.id);
    const next = await defaultSandbox(orgId);

    const before = Date.now();
    const { planned, report } = await roundFor(old.id);
    const after = Date.now();
    expect(planned).toEqual({ connectionId: old.id, due: 3 });
    expect(report).toMatchObject({
      connection_id: old.id,
      carrier_name: null,
      due: 3,
      deferred: 3,
      failed: 0,
      refreshed: 0,
      requests: 0,
    });
    for (const row of await trackerRows(ids)) {
      expect(row).toMatchObject({ carrierConnectionId: next, carrierId: "sandbox", refreshFailures: 0 });
      expect(row.lastError).toBeNull();
      // Due now, not at the end of the claim's lease: the next round of the new connection takes them.
      expect(row.nextRefreshAt!.getTime()).toBeGreaterThanOrEqual(before);
      expect(row.nextRefreshAt!.getTime()).toBeLessThanOrEqual(after);
    }
    const { planned: moved, report: refreshed } = await roundFor(next);
    expect(moved).toEqual({ connectionId: next, due: 3 });
    expect(refreshed).toMatchObject({ carrier_name: "sandbox", due: 3, refreshed: 3, failed: 0 });
    expect((await trackerRows(ids)).map((r) => r.status)).toEqual(["in_transit", "in_transit", "in_transit"]);
  });

  it("a deleted connection's trackers move too", async () => {
    const { key, orgId } = await makeOrg();
    const old = await addSandbox(key, "deleted-account", { pace: 1 });
    const ids = await seedDueTrackers(orgId, old.id, sandboxNumbers(2, 30, 2));
    expect((await call(removeConnection, "DELETE", "", { key, params: { id: old.id } })).status).toBe(200);

    const { report } = await roundFor(old.id);
    expect(report).toMatchObject({ due: 2, deferred: 2, failed: 0 });
    const next = await defaultSandbox(orgId);
    expect((await trackerRows(ids)).map((r) => r.carrierConnectionId)).toEqual([next, next]);
  });

  it("with no active connection of the carrier left, they keep waiting with the reason, retried later", async () => {
    const { key, orgId } = await makeOrg();
    const old = await addSandbox(key, "only-account", { pace: 1 });
    const ids = await seedDueTrackers(orgId, old.id, sandboxNumbers(2, 30, 2));
    await deactivate(key, old.id);
    await deactivate(key, await defaultSandbox(orgId));

    const before = Date.now();
    const { report } = await roundFor(old.id);
    const after = Date.now();
    expect(report).toMatchObject({ due: 2, deferred: 0, failed: 2, refreshed: 0 });
    for (const row of await trackerRows(ids)) {
      expect(row).toMatchObject({
        carrierConnectionId: old.id,
        carrierId: "only-account",
        status: "pending",
        retiredAt: null,
        refreshFailures: 1,
        lastError: [
          {
            carrier_name: "sandbox",
            carrier_id: "only-account",
            code: "carrier_not_found",
            message: "No active sandbox connection is able to do track.",
            level: "error",
          },
        ],
      });
      // The first failure's retry: 15 minutes on, ±10 %.
      expect(row.nextRefreshAt!.getTime()).toBeGreaterThanOrEqual(before + 13.5 * MINUTE);
      expect(row.nextRefreshAt!.getTime()).toBeLessThanOrEqual(after + 16.5 * MINUTE);
    }

    // Not due again before then: a second round finds nothing to claim.
    expect((await roundFor(old.id)).report).toMatchObject({ due: 0, deferred: 0, failed: 0 });
  });

  it("a failure other than a missing connection ends the round; the trackers stay claimed for five minutes", async () => {
    const { key, orgId } = await makeOrg();
    const old = await addSandbox(key, "flaky-lookup", { pace: 1 });
    const ids = await seedDueTrackers(orgId, old.id, sandboxNumbers(3, 30, 2));
    await deactivate(key, old.id);
    const now = new Date();
    vi.useFakeTimers({ toFake: ["Date"], now });
    lookup.failure = new Error("database restarting");

    const ctx = await systemCtx(await getDb());
    await expect(refreshConnection({ ctx, connectionId: old.id })).rejects.toThrow("database restarting");
    for (const row of await trackerRows(ids)) {
      expect(row).toMatchObject({ carrierConnectionId: old.id, refreshFailures: 0, lastError: null });
      expect(row.nextRefreshAt).toEqual(new Date(now.getTime() + 5 * MINUTE));
    }
  });

  it("retries a tracker left without a connection from the round's own time", async () => {
    const { key, orgId } = await makeOrg();
    const old = await addSandbox(key, "later-round", { pace: 1 });
    const [id] = await seedDueTrackers(orgId, old.id, sandboxNumbers(1, 30, 2));
    await deactivate(key, old.id);
    await deactivate(key, await defaultSandbox(orgId));
    // A round timed two hours ahead of the clock: the retry is 15 minutes (±10 %) after that.
    const now = new Date(Date.now() + 120 * MINUTE);

    expect(await reassignOrphanTrackers(await systemCtx(await getDb()), old.id, now)).toEqual({
      claimed: 1,
      reassigned: 0,
    });
    const [row] = await trackerRows([id!]);
    expect(row!.refreshFailures).toBe(1);
    expect(row!.nextRefreshAt!.getTime()).toBeGreaterThanOrEqual(now.getTime() + 13.5 * MINUTE);
    expect(row!.nextRefreshAt!.getTime()).toBeLessThanOrEqual(now.getTime() + 16.5 * MINUTE);
  });
});
