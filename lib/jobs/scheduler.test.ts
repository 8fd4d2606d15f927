import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { sendLogsTo } from "@/lib/log";
import { planRefresh } from "@/lib/trackers/refresh/due-trackers";
import { logConnectionRound, refreshConnection } from "@/lib/trackers/refresh/refresh-connection";
import { planWebhookRound } from "@/lib/webhooks/due-deliveries";
import { purgeExpired } from "@/lib/webhooks/retention";
import { logEndpointRound, sendEndpointDeliveries } from "@/lib/webhooks/send-due";
import { eventsWritten } from "@/lib/webhooks/nudge";
import { purgeAuditEvents } from "@/lib/audit/retention";
import { checkDueRefunds } from "@/lib/shipments/refunds";
import { activeBatches } from "@/lib/batches/manage-batch";
import { runBatch } from "@/lib/batches/run-batch";
import {
  currentRefreshLoop,
  currentWebhookLoop,
  startBatchLoop,
  startRefreshLoop,
  startWebhookLoop,
  type BackgroundLoop,
} from "./scheduler";

// The loops' mechanics alone, on fake timers: what a tick plans and does is tested on a real database in
// test/refresh-jobs.test.ts and test/webhook-jobs.test.ts.
vi.mock("@/lib/db/client", () => ({ getDb: vi.fn(async () => ({})) }));
vi.mock("@/lib/trackers/refresh/due-trackers", () => ({ planRefresh: vi.fn() }));
vi.mock("@/lib/trackers/refresh/refresh-connection", () => ({
  refreshConnection: vi.fn(),
  logConnectionRound: vi.fn(),
}));
vi.mock("@/lib/webhooks/retention", () => ({ purgeExpired: vi.fn() }));
vi.mock("@/lib/audit/retention", () => ({ purgeAuditEvents: vi.fn().mockResolvedValue(0) }));
vi.mock("@/lib/webhooks/due-deliveries", () => ({ planWebhookRound: vi.fn() }));
vi.mock("@/lib/webhooks/send-due", () => ({ sendEndpointDeliveries: vi.fn(), logEndpointRound: vi.fn() }));
vi.mock("@/lib/shipments/refunds", () => ({ checkDueRefunds: vi.fn() }));
vi.mock("@/lib/batches/manage-batch", () => ({ activeBatches: vi.fn() }));
vi.mock("@/lib/batches/run-batch", () => ({ runBatch: vi.fn() }));

const plan = vi.mocked(planRefresh);
const refresh = vi.mocked(refreshConnection);
const purge = vi.mocked(purgeExpired);
const planWebhooks = vi.mocked(planWebhookRound);
const send = vi.mocked(sendEndpointDeliveries);
const refunds = vi.mocked(checkDueRefunds);
const purgeAudit = vi.mocked(purgeAuditEvents);
const batches = vi.mocked(activeBatches);
const runRound = vi.mocked(runBatch);

let lines: Record<string, unknown>[] = [];
beforeAll(() => {
  process.env.LOG_LEVEL = "info";
  resetEnvCache();
  sendLogsTo({ write: (line: string) => void lines.push(JSON.parse(line)) });
});
afterAll(() => {
  process.env.LOG_LEVEL = "silent";
  resetEnvCache();
});

const loops: BackgroundLoop[] = [];
beforeEach(() => {
  vi.useFakeTimers();
  lines = [];
  plan.mockReset().mockResolvedValue([]);
  refresh.mockReset();
  vi.mocked(logConnectionRound).mockReset();
  purge.mockReset().mockResolvedValue({ events: 0, attempts: 0 });
  planWebhooks.mockReset().mockResolvedValue([]);
  send.mockReset();
  vi.mocked(logEndpointRound).mockReset();
  refunds.mockReset().mockResolvedValue({ checked: 0 } as never);
  purgeAudit.mockReset().mockResolvedValue(0);
  batches.mockReset().mockResolvedValue([]);
  runRound.mockReset();
});
afterEach(async () => {
  const stopping = Promise.all(loops.splice(0).map((l) => l.stop()));
  await vi.advanceTimersByTimeAsync(5_000);
  await stopping;
  vi.useRealTimers();
});

function refreshLoop(intervalMs: number) {
  const loop = startRefreshLoop({ intervalMs });
  loops.push(loop);
  return loop;
}
function webhookLoop(intervalMs: number) {
  const loop = startWebhookLoop({ intervalMs });
  loops.push(loop);
  return loop;
}
function batchLoop(intervalMs: number) {
  const loop = startBatchLoop({ intervalMs });
  loops.push(loop);
  return loop;
}

/** The system context every loop's units run with. */
const loopCtx = expect.objectContaining({ actor: { type: "system", name: "in_process" } });

/** A promise the test settles when it wants. */
function pending<T>() {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

const report = (connectionId: string) =>
  ({ connection_id: connectionId }) as Awaited<ReturnType<typeof refreshConnection>>;

describe("the in-process refresh loop", () => {
  it("ticks a second after it starts (or sooner, at its interval), then once per interval", async () => {
    const loop = refreshLoop(5_000);
    expect(lines.filter((l) => l.msg === "tracker refresh running in-process")).toMatchObject([{ interval_ms: 5_000 }]);
    await vi.advanceTimersByTimeAsync(999);
    expect(plan).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(plan).toHaveBeenCalledTimes(1);
    expect(loop.ticks).toBe(1);
    await vi.advanceTimersByTimeAsync(4_000);
    expect(plan).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(plan).toHaveBeenCalledTimes(3);
    expect(loop.ticks).toBe(3);

    await loop.stop();
    loops.length = 0;
    expect(currentRefreshLoop()).toBeUndefined();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(plan).toHaveBeenCalledTimes(3);
  });

  it("with a short interval, first ticks at that interval", async () => {
    refreshLoop(200);
    await vi.advanceTimersByTimeAsync(199);
    expect(plan).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(plan).toHaveBeenCalled();
  });

  it("is one loop per process: starting it again returns the running one; after stop a new one starts", async () => {
    const loop = refreshLoop(2_000);
    expect(startRefreshLoop({ intervalMs: 50 })).toBe(loop);
    expect(currentRefreshLoop()).toBe(loop);
    await loop.stop();
    loops.length = 0;
    const next = refreshLoop(2_000);
    expect(next).not.toBe(loop);
    expect(next.intervalMs).toBe(2_000);
  });

  it("runs each connection with due trackers, with three intervals (at least 30 s) of round time, and logs its round", async () => {
    plan.mockResolvedValue([
      { connectionId: "conn_a", due: 3 },
      { connectionId: "conn_b", due: 1 },
    ]);
    refresh.mockImplementation(async ({ connectionId }) => report(connectionId));
    refreshLoop(2_000);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(refresh.mock.calls.map(([args]) => [args.connectionId, args.maxDurationMs])).toEqual([
      ["conn_a", 30_000],
      ["conn_b", 30_000],
    ]);
    expect(vi.mocked(logConnectionRound).mock.calls.map(([, r]) => r)).toEqual([report("conn_a"), report("conn_b")]);
    // The context of a background job: a system actor named for the loop.
    expect(plan.mock.calls[0]![0].ctx.actor).toEqual({ type: "system", name: "in_process" });
  });

  it("gives a long interval's rounds three intervals", async () => {
    plan.mockResolvedValue([{ connectionId: "conn_a", due: 1 }]);
    refresh.mockImplementation(async ({ connectionId }) => report(connectionId));
    refreshLoop(20_000);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(refresh.mock.calls[0]![0].maxDurationMs).toBe(60_000);
  });

  it("does not start a connection still busy from an earlier tick, and starts it again once it is done", async () => {
    plan.mockResolvedValue([
      { connectionId: "slow", due: 1 },
      { connectionId: "fast", due: 1 },
    ]);
    const slow = pending<ReturnType<typeof report>>();
    refresh.mockImplementation(({ connectionId }) =>
      connectionId === "slow" ? slow.promise : Promise.resolve(report(connectionId)),
    );
    refreshLoop(2_000);
    await vi.advanceTimersByTimeAsync(5_000); // ticks at 1, 2 and 4 s
    const started = () => refresh.mock.calls.map(([args]) => args.connectionId);
    expect(started().filter((c) => c === "slow")).toHaveLength(1);
    expect(started().filter((c) => c === "fast")).toHaveLength(3);

    slow.resolve(report("slow"));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(started().filter((c) => c === "slow")).toHaveLength(2);
  });

  it("never overlaps its ticks: a slow plan holds the next tick back", async () => {
    const slowPlan = pending<{ connectionId: string; due: number }[]>();
    plan.mockReturnValueOnce(slowPlan.promise);
    const loop = refreshLoop(2_000);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(plan).toHaveBeenCalledTimes(1);
    expect(loop.ticks).toBe(0);
    slowPlan.resolve([]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(plan).toHaveBeenCalledTimes(2);
    expect(loop.ticks).toBe(2);
  });

  it("skips a tick whose plan fails, says so, and ticks again next time", async () => {
    plan.mockRejectedValueOnce(new Error("database restarting"));
    const loop = refreshLoop(2_000);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(loop.ticks).toBe(0);
    expect(lines.filter((l) => l.msg === "tracker refresh tick skipped")).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(plan).toHaveBeenCalledTimes(2);
    expect(loop.ticks).toBe(1);
  });

  it("logs a connection's failed round with its id, and keeps going", async () => {
    plan.mockResolvedValue([{ connectionId: "conn_broken", due: 1 }]);
    refresh
      .mockRejectedValueOnce(new Error("boom"))
      .mockImplementation(async ({ connectionId }) => report(connectionId));
    refreshLoop(2_000);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(lines.filter((l) => l.msg === "tracker refresh failed")).toMatchObject([{ connection_id: "conn_broken" }]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(refresh).toHaveBeenCalledTimes(2);
  });

  it("asks carriers about pending refunds on each tick, and logs a round that checked any, or failed", async () => {
    refunds
      .mockResolvedValueOnce({ checked: 2, settled: 1 } as never)
      .mockResolvedValueOnce({ checked: 0 } as never)
      .mockRejectedValueOnce(new Error("carrier down"));
    const started = Date.now();
    refreshLoop(2_000);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(refunds.mock.calls).toEqual([[{ ctx: loopCtx, now: new Date(started + 1_000) }]]);
    expect(lines.filter((l) => l.msg === "refund_round")).toMatchObject([{ checked: 2, settled: 1 }]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(refunds).toHaveBeenCalledTimes(2);
    expect(lines.filter((l) => l.msg === "refund_round")).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(lines.filter((l) => l.msg === "refund check failed")).toMatchObject([{ err: { message: "carrier down" } }]);
  });

  it("stop waits for rounds in flight, but not for more than 5 s", async () => {
    plan.mockResolvedValue([{ connectionId: "conn_a", due: 1 }]);
    const round = pending<ReturnType<typeof report>>();
    refresh.mockReturnValue(round.promise);
    const loop = refreshLoop(2_000);
    await vi.advanceTimersByTimeAsync(1_000);
    let stopped = false;
    void loop.stop().then(() => (stopped = true));
    loops.length = 0;
    await vi.advanceTimersByTimeAsync(4_999);
    expect(stopped).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(stopped).toBe(true);

    const again = refreshLoop(2_000);
    await vi.advanceTimersByTimeAsync(1_000);
    let stoppedAgain = false;
    void again.stop().then(() => (stoppedAgain = true));
    loops.length = 0;
    round.resolve(report("conn_a"));
    await vi.advanceTimersByTimeAsync(0);
    expect(stoppedAgain).toBe(true);
  });

  it("stop waits for a tick still planning, and that tick starts nothing", async () => {
    const planning = pending<Awaited<ReturnType<typeof planRefresh>>>();
    plan.mockReturnValue(planning.promise);
    const loop = refreshLoop(2_000);
    await vi.advanceTimersByTimeAsync(1_000);
    let stopped = false;
    void loop.stop().then(() => (stopped = true));
    loops.length = 0;
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    planning.resolve([{ connectionId: "conn_a", due: 1 }]);
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(true);
    expect(loop.ticks).toBe(1);
    expect(refresh).not.toHaveBeenCalled();
  });

  it("an older loop's stop leaves a newer loop running", async () => {
    const old = refreshLoop(2_000);
    await old.stop();
    const current = refreshLoop(2_000);
    await old.stop();
    expect(currentRefreshLoop()).toBe(current);
  });

  it("stops every loop on SIGTERM, once, however many loops there are", async () => {
    const kill = vi.spyOn(process, "kill").mockImplementation(() => true);
    const before = process.listenerCount("SIGTERM");
    refreshLoop(2_000);
    webhookLoop(2_000);
    expect(process.listenerCount("SIGTERM")).toBeLessThanOrEqual(before + 1);
    expect(process.listenerCount("SIGINT")).toBeGreaterThan(0);
    process.emit("SIGTERM");
    await vi.advanceTimersByTimeAsync(0);
    expect(currentRefreshLoop()).toBeUndefined();
    expect(currentWebhookLoop()).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(plan).not.toHaveBeenCalled();
    kill.mockRestore();
    loops.length = 0;
  });
});

/** No shutdown handler of the loops installed: a handler left by an earlier test is fired (and the kill it ends with caught). */
async function withoutSignalHandlers() {
  const kill = vi.spyOn(process, "kill").mockImplementation(() => true);
  if ((globalThis as Record<symbol, unknown>)[Symbol.for("shipwell.loopSignals")]) {
    process.emit("SIGTERM", "SIGTERM");
    await vi.advanceTimersByTimeAsync(0);
  }
  kill.mockClear();
  // Nobody else listens in a test worker: the loops' handler decides alone whether the process ends.
  expect([process.listenerCount("SIGTERM"), process.listenerCount("SIGINT")]).toEqual([0, 0]);
  return kill;
}

describe("shutting down on a signal", () => {
  afterEach(() => {
    vi.mocked(process.kill).mockRestore?.();
  });

  it("one SIGTERM and one SIGINT handler serve every loop, installed with the first loop", async () => {
    await withoutSignalHandlers();
    const refresh = refreshLoop(2_000);
    expect([process.listenerCount("SIGTERM"), process.listenerCount("SIGINT")]).toEqual([1, 1]);
    const webhooks = webhookLoop(2_000);
    expect([process.listenerCount("SIGTERM"), process.listenerCount("SIGINT")]).toEqual([1, 1]);
    expect(currentRefreshLoop()).toBe(refresh);
    expect(currentWebhookLoop()).toBe(webhooks);
  });

  it("the loops and their handlers live on globalThis under well-known keys, found by any copy of the module", async () => {
    await withoutSignalHandlers();
    const refresh = refreshLoop(2_000);
    const webhooks = webhookLoop(2_000);
    const global = globalThis as Record<symbol, unknown>;
    expect(global[Symbol.for("shipwell.refreshLoop")]).toBe(refresh);
    expect(global[Symbol.for("shipwell.webhookLoop")]).toBe(webhooks);
    expect(global[Symbol.for("shipwell.loopSignals")]).toBe(true);
    // A dev-server hot reload (or a second bundle) evaluates the module again: same loops, no second handler.
    vi.resetModules();
    const again = await import("./scheduler");
    expect(again.startRefreshLoop({ intervalMs: 50 })).toBe(refresh);
    expect(again.startWebhookLoop({ intervalMs: 50 })).toBe(webhooks);
    expect([process.listenerCount("SIGTERM"), process.listenerCount("SIGINT")]).toEqual([1, 1]);
  });

  it("SIGINT stops the running loop, removes both handlers, then ends the process with SIGINT", async () => {
    const kill = await withoutSignalHandlers();
    // Only the refresh loop runs: the webhook sender's empty slot is skipped.
    refreshLoop(2_000);
    // Node calls a signal's listeners with the signal's name.
    process.emit("SIGINT", "SIGINT");
    await vi.advanceTimersByTimeAsync(0);
    loops.length = 0;
    expect(currentRefreshLoop()).toBeUndefined();
    expect([process.listenerCount("SIGTERM"), process.listenerCount("SIGINT")]).toEqual([0, 0]);
    expect(kill.mock.calls).toEqual([[process.pid, "SIGINT"]]);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(plan).not.toHaveBeenCalled();
  });

  it("leaves ending the process to another SIGTERM listener (Next.js's own), and installs afresh for the next loop", async () => {
    const kill = await withoutSignalHandlers();
    const nextJs = vi.fn();
    process.on("SIGTERM", nextJs);
    try {
      webhookLoop(2_000);
      process.emit("SIGTERM", "SIGTERM");
      await vi.advanceTimersByTimeAsync(0);
      loops.length = 0;
      expect(currentWebhookLoop()).toBeUndefined();
      expect(nextJs).toHaveBeenCalledTimes(1);
      expect(kill).not.toHaveBeenCalled();
      expect([process.listenerCount("SIGTERM"), process.listenerCount("SIGINT")]).toEqual([1, 0]);
    } finally {
      process.removeListener("SIGTERM", nextJs);
    }
    refreshLoop(2_000);
    expect([process.listenerCount("SIGTERM"), process.listenerCount("SIGINT")]).toEqual([1, 1]);
  });
});

describe("the in-process webhook sender", () => {
  it("starts a round about 50 ms after events are written, not at the next tick; a worker busy then runs again", async () => {
    const busy = pending<never>();
    planWebhooks.mockResolvedValue(["ep_1"]);
    send.mockImplementationOnce(() => busy.promise);
    send.mockImplementation(async ({ endpointId }) => ({ endpoint_id: endpointId }) as never);
    webhookLoop(60_000);
    await vi.advanceTimersByTimeAsync(1_000); // the first tick: ep_1's worker starts and stays busy
    expect(send).toHaveBeenCalledTimes(1);
    eventsWritten();
    eventsWritten(); // one nudge for both
    await vi.advanceTimersByTimeAsync(49);
    expect(planWebhooks).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(planWebhooks).toHaveBeenCalledTimes(2);
    // ep_1 was still busy, so that round skipped it; once it is done, it is worked again at once.
    expect(send).toHaveBeenCalledTimes(1);
    busy.resolve(undefined as never);
    await vi.advanceTimersByTimeAsync(1);
    expect(planWebhooks).toHaveBeenCalledTimes(3);
    expect(send).toHaveBeenCalledTimes(2);
    // Without events, nothing until the next tick.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(planWebhooks).toHaveBeenCalledTimes(3);
  });

  it("sends each endpoint's due deliveries and purges old ones about once a minute", async () => {
    planWebhooks.mockResolvedValue(["ep_1", "ep_2"]);
    send.mockImplementation(async ({ endpointId }) => ({ endpoint_id: endpointId }) as never);
    purge.mockResolvedValueOnce({ events: 2, attempts: 5 });
    const started = Date.now();
    webhookLoop(2_000);
    expect(lines.filter((l) => l.msg === "webhook sender running in-process")).toMatchObject([{ interval_ms: 2_000 }]);
    await vi.advanceTimersByTimeAsync(1_000);
    // Both see the tick's time and the loop's system context.
    const tick = {
      ctx: loopCtx,
      now: new Date(started + 1_000),
    };
    expect(purge.mock.calls).toEqual([[tick]]);
    expect(planWebhooks.mock.calls).toEqual([[tick]]);
    expect(send.mock.calls.map(([a]) => [a.endpointId, a.maxDurationMs])).toEqual([
      ["ep_1", 30_000],
      ["ep_2", 30_000],
    ]);
    expect(vi.mocked(logEndpointRound)).toHaveBeenCalledTimes(2);
    expect(purge).toHaveBeenCalledTimes(1);
    expect(lines.filter((l) => l.msg === "webhook_retention")).toMatchObject([{ events: 2, attempts: 5 }]);
  });

  it("purges again a full minute after the last purge, not sooner", async () => {
    webhookLoop(1_000);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(purge).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(purge).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(purge).toHaveBeenCalledTimes(2);
    // Nothing purged, nothing said.
    expect(lines.filter((l) => l.msg === "webhook_retention")).toHaveLength(0);
  });

  it("logs a failed purge or delivery round and keeps sending", async () => {
    planWebhooks.mockResolvedValue(["ep_1"]);
    purge.mockRejectedValueOnce(new Error("disk"));
    send.mockRejectedValueOnce(new Error("boom")).mockResolvedValue({} as never);
    webhookLoop(2_000);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(lines.filter((l) => l.msg === "webhook retention failed")).toHaveLength(1);
    expect(lines.filter((l) => l.msg === "webhook delivery failed")).toMatchObject([{ endpoint_id: "ep_1" }]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(send).toHaveBeenCalledTimes(2);
  });

  it("prunes the audit log with the webhooks' rows, and logs what it removed, or its failure", async () => {
    purgeAudit.mockResolvedValueOnce(3).mockRejectedValueOnce(new Error("disk"));
    const started = Date.now();
    webhookLoop(1_000);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(purgeAudit.mock.calls).toEqual([[{ ctx: loopCtx, now: new Date(started + 1_000) }]]);
    expect(lines.filter((l) => l.msg === "audit_retention")).toMatchObject([{ audit_events: 3 }]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(purgeAudit).toHaveBeenCalledTimes(2);
    expect(lines.filter((l) => l.msg === "audit retention failed")).toMatchObject([{ err: { message: "disk" } }]);
    // Nothing removed, nothing said.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(purgeAudit).toHaveBeenCalledTimes(3);
    expect(lines.filter((l) => l.msg === "audit_retention")).toHaveLength(1);
  });

  it("works at most 32 endpoints at once (and the purge)", async () => {
    planWebhooks.mockResolvedValue(Array.from({ length: 40 }, (_, i) => `ep_${i}`));
    const never = pending<never>();
    send.mockReturnValue(never.promise);
    purge.mockReturnValue(pending<never>().promise);
    webhookLoop(2_000);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(send).toHaveBeenCalledTimes(32);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(send).toHaveBeenCalledTimes(32);
  });
});

describe("the in-process batch runner", () => {
  it("works a round of each active batch on each tick, 30 s at most, and logs the rounds that worked rows", async () => {
    batches.mockResolvedValue(["bat_1", "bat_2"]);
    runRound.mockImplementation(async ({ batchId }) =>
      batchId === "bat_1"
        ? { batchId, worked: 3, state: "ready", more: false }
        : { batchId, worked: 0, state: "purchasing", more: false },
    );
    batchLoop(2_000);
    expect(lines.filter((l) => l.msg === "batch runner running in-process")).toMatchObject([{ interval_ms: 2_000 }]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(batches).toHaveBeenCalledTimes(1);
    expect(runRound.mock.calls).toEqual([
      [{ ctx: loopCtx, batchId: "bat_1", maxDurationMs: 30_000 }],
      [{ ctx: loopCtx, batchId: "bat_2", maxDurationMs: 30_000 }],
    ]);
    expect(lines.filter((l) => l.msg === "batch_round")).toEqual([
      expect.objectContaining({ batch_id: "bat_1", worked: 3, state: "ready" }),
    ]);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(runRound).toHaveBeenCalledTimes(4);
  });

  it("logs a failed round with its batch and works that batch again on the next tick", async () => {
    batches.mockResolvedValue(["bat_1"]);
    runRound.mockRejectedValueOnce(new Error("database restarting")).mockResolvedValue({
      batchId: "bat_1",
      worked: 1,
      state: "purchasing",
      more: true,
    });
    batchLoop(2_000);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(lines.filter((l) => l.msg === "batch round failed")).toMatchObject([
      { batch_id: "bat_1", err: { message: "database restarting" } },
    ]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runRound).toHaveBeenCalledTimes(2);
    expect(lines.filter((l) => l.msg === "batch_round")).toHaveLength(1);
  });

  it("works at most 8 batches at once, and not one still busy from an earlier tick", async () => {
    batches.mockResolvedValue(Array.from({ length: 10 }, (_, i) => `bat_${i}`));
    runRound.mockReturnValue(pending<never>().promise);
    batchLoop(1_000);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runRound).toHaveBeenCalledTimes(8);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runRound).toHaveBeenCalledTimes(8);
  });

  it("gives a freed slot to a batch not worked yet, not to the long batch whose round just ended", async () => {
    batches.mockResolvedValue(Array.from({ length: 9 }, (_, i) => `bat_${i + 1}`));
    // Each round works for its 30 s (a paced 10 000-row batch has hours of them) and leaves more to do.
    runRound.mockImplementation(
      ({ batchId }) =>
        new Promise((resolve) =>
          setTimeout(() => resolve({ batchId, worked: 1, state: "purchasing", more: true }), 30_000),
        ),
    );
    batchLoop(1_000);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    const started = runRound.mock.calls.map(([a]) => a.batchId);
    expect(new Set(started)).toContain("bat_9");
    // Turn about: none of the nine has more than one round over another.
    const per = new Map<string, number>();
    for (const id of started) per.set(id, (per.get(id) ?? 0) + 1);
    expect(Math.max(...per.values()) - Math.min(...per.values())).toBeLessThanOrEqual(1);
  });
});
