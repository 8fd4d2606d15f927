import { afterEach, describe, expect, it, vi } from "vitest";
import { InngestTestEngine } from "@inngest/test";
import type { ConnectionRoundReport } from "@/lib/trackers/refresh/refresh-connection";
import { refreshTrackersFunction } from "@/lib/jobs/refresh-trackers";
import { currentRefreshLoop, startRefreshLoop } from "@/lib/jobs/scheduler";
import { makeOrg } from "./helpers";
import { addSandbox } from "./factories";
import { captureLogs, sandboxNumbers, seedDueTrackers, trackerRows } from "./refresh-helpers";

// Other test files share the database: rounds here only see this file's connections.
const mine = vi.hoisted(() => new Set<string>());
// Rounds a test decides (by connection id), planned and reported as they are: the job's own arithmetic alone.
const decided = vi.hoisted(() => new Map<string, ConnectionRoundReport>());
vi.mock("@/lib/trackers/refresh/due-trackers", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/lib/trackers/refresh/due-trackers")>();
  return {
    ...original,
    planRefresh: async (...args: Parameters<typeof original.planRefresh>) =>
      decided.size > 0
        ? [...decided.values()].map((r) => ({ connectionId: r.connection_id, due: r.due }))
        : (await original.planRefresh(...args)).filter((p) => mine.has(p.connectionId)),
  };
});
vi.mock("@/lib/trackers/refresh/refresh-connection", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/lib/trackers/refresh/refresh-connection")>();
  return {
    ...original,
    refreshConnection: async (args: Parameters<typeof original.refreshConnection>[0]) =>
      decided.get(args.connectionId) ?? original.refreshConnection(args),
  };
});

afterEach(async () => {
  vi.useRealTimers();
  decided.clear();
  await currentRefreshLoop()?.stop();
});

async function twoConnectionsWithDueTrackers() {
  const { key, orgId } = await makeOrg();
  const a = await addSandbox(key, "job-a", { pace: 1 });
  const b = await addSandbox(key, "job-b", { pace: 1, fail_operations: ["track"] });
  mine.add(a.id);
  mine.add(b.id);
  const good = await seedDueTrackers(orgId, a.id, sandboxNumbers(5, 30, 2));
  const bad = await seedDueTrackers(orgId, b.id, sandboxNumbers(3, 31, 2));
  return { a, b, good, bad };
}

describe("Inngest function refresh-trackers", () => {
  it("plans, then runs one step per connection; a failing carrier fails only its own trackers", async () => {
    const { a, b, good, bad } = await twoConnectionsWithDueTrackers();
    const t = new InngestTestEngine({ function: refreshTrackersFunction });
    const { result, ctx } = await t.execute();
    // The test engine may run a parallel step again on a later pass (real Inngest runs each step once), and a second
    // run finds nothing due: so the assertions are on the steps called and on the database.
    expect(result).toMatchObject({ connections: 2 });
    const stepIds = (ctx.step.run as unknown as { mock: { calls: [string][] } }).mock.calls.map((c) => c[0]);
    expect(stepIds).toEqual(expect.arrayContaining(["plan", `refresh-${a.id}`, `refresh-${b.id}`]));
    // The engine can hand back its result while a step it re-ran is still finishing: wait for the database.
    await vi.waitFor(
      async () => {
        for (const row of await trackerRows(good)) expect(row.status).toBe("in_transit");
        for (const row of await trackerRows(bad)) expect(row).toMatchObject({ status: "pending", refreshFailures: 1 });
      },
      { timeout: 10_000, interval: 100 },
    );
  });

  it("sums the connections' rounds, and logs each round as the inngest runner", async () => {
    const round = (connection_id: string, counts: Partial<ConnectionRoundReport>): ConnectionRoundReport => ({
      connection_id,
      carrier_name: "sandbox",
      due: 9,
      refreshed: 0,
      changed: 0,
      failed: 0,
      backed_off: 0,
      rate_limited_calls: 0,
      deferred: 0,
      requests: 1,
      duration_ms: 10,
      ...counts,
    });
    decided.set("conn_sum_a", round("conn_sum_a", { refreshed: 5, failed: 1, backed_off: 3 }));
    decided.set("conn_sum_b", round("conn_sum_b", { refreshed: 2, failed: 3, backed_off: 4 }));
    const logs = captureLogs();
    try {
      const { result } = await new InngestTestEngine({ function: refreshTrackersFunction }).execute();
      expect(result).toEqual({
        connections: 2,
        refreshed: 7,
        failed: 4,
        backed_off: 7,
        refunds: { checked: 0, settled: 0, failed: 0 },
      });
    } finally {
      logs.restore();
    }
    const rounds = logs.lines.filter((l) => l.msg === "tracker_refresh");
    expect(new Set(rounds.map((l) => l.connection_id))).toEqual(new Set(["conn_sum_a", "conn_sum_b"]));
    for (const line of rounds) expect(line.runner).toBe("inngest");
  });

  it("is a cron function that never overlaps itself", async () => {
    // Loaded afresh here, so the definition is evaluated in the test.
    vi.resetModules();
    const { refreshTrackersFunction } = await import("@/lib/jobs/refresh-trackers");
    expect(refreshTrackersFunction.opts.id).toBe("refresh-trackers");
    const config = refreshTrackersFunction.opts as { triggers?: { cron?: string }[]; concurrency?: { limit: number } };
    expect(config.triggers).toEqual([{ cron: "* * * * *" }]);
    expect(config.concurrency).toEqual({ limit: 1 });
  });
});

describe("in-process refresh loop (embedded default)", () => {
  it("starts once per process, also across module reloads, and refreshes due trackers on its ticks", async () => {
    const { good } = await twoConnectionsWithDueTrackers();
    // The loop's timers are fake: vi.waitFor moves them on by its interval at every check, and after stop() the
    // test moves them on by many intervals instead of sleeping.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
    const loop = startRefreshLoop({ intervalMs: 100 });
    expect(startRefreshLoop({ intervalMs: 100 })).toBe(loop);
    // A dev-server hot reload evaluates the module again: the loop on globalThis is found, not duplicated.
    vi.resetModules();
    const reloaded = await import("@/lib/jobs/scheduler");
    expect(reloaded.startRefreshLoop({ intervalMs: 100 })).toBe(loop);

    await vi.waitFor(
      async () => {
        for (const row of await trackerRows(good)) expect(row.status).toBe("in_transit");
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(loop.ticks).toBeGreaterThan(0);
    await loop.stop();
    expect(currentRefreshLoop()).toBeUndefined();
    const ticks = loop.ticks;
    await vi.advanceTimersByTimeAsync(1000);
    expect(loop.ticks).toBe(ticks);
  });

  it("is started by the server start-up only when Inngest is not configured", async () => {
    const { resetEnvCache } = await import("@/lib/env");
    const { startServer } = await import("@/lib/start-server");
    // The webhook sender starts beside the refresh; its own test is test/webhook-jobs.test.ts.
    vi.stubEnv("WEBHOOK_DELIVERY", "off");
    vi.stubEnv("INNGEST_SIGNING_KEY", "signkey-test-abc");
    resetEnvCache();
    await startServer();
    expect(currentRefreshLoop()).toBeUndefined();
    vi.stubEnv("INNGEST_SIGNING_KEY", "");
    resetEnvCache();
    await startServer();
    expect(currentRefreshLoop()).toBeDefined();
    await startServer();
    expect(currentRefreshLoop()?.intervalMs).toBe(15_000);
    vi.unstubAllEnvs();
    resetEnvCache();
  });
});
