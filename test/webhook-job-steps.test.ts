import { afterEach, describe, expect, it, vi } from "vitest";
import { InngestTestEngine } from "@inngest/test";
import { onEventsWritten } from "@/lib/webhooks/nudge";

/**
 * The send-webhooks function's shape, without a database or receivers: a round's endpoints go out in steps of 20,
 * each endpoint's worker once, and the totals add up (lib/jobs/send-webhooks.ts). Delivery itself is tested in
 * webhook-jobs.test.ts and webhook-delivery.test.ts.
 */

const plan = vi.hoisted(() => ({ ids: [] as string[], nows: [] as Date[] }));
vi.mock("@/lib/db/client", () => ({ getDb: async () => ({}) }));
vi.mock("@/lib/webhooks/due-deliveries", () => ({
  planWebhookRound: async ({ now }: { now: Date }) => {
    plan.nows.push(now);
    return plan.ids;
  },
}));
vi.mock("@/lib/webhooks/send-due", () => ({
  sendEndpointDeliveries: vi.fn(async ({ endpointId }: { endpointId: string }) => {
    const n = Number(endpointId.slice(4));
    return { endpoint_id: endpointId, sent: 3, succeeded: n % 2 === 0 ? 3 : 2, failed: n % 2, disabled: false };
  }),
  logEndpointRound: vi.fn(),
}));
vi.mock("@/lib/webhooks/retention", () => ({
  purgeExpired: vi.fn(async () => ({ events: 7, attempts: 11 })),
}));
vi.mock("@/lib/audit/retention", () => ({ purgeAuditEvents: vi.fn(async () => 5) }));

afterEach(() => {
  vi.clearAllMocks();
  plan.nows.length = 0;
});

describe("send-webhooks steps", () => {
  it("sends the planned endpoints in steps of 20, each once, and answers the round's totals", async () => {
    const { sendWebhooksFunction } = await import("@/lib/jobs/send-webhooks");
    const { sendEndpointDeliveries, logEndpointRound } = await import("@/lib/webhooks/send-due");
    const { purgeExpired } = await import("@/lib/webhooks/retention");
    plan.ids = Array.from({ length: 41 }, (_, i) => `whk_${i}`);
    const { result, ctx } = await new InngestTestEngine({ function: sendWebhooksFunction }).execute();
    const stepIds = (ctx.step.run as unknown as { mock: { calls: [string][] } }).mock.calls.map((c) => c[0]);
    expect([...new Set(stepIds)].sort()).toEqual(
      ["plan", "purge", "purge-audit", "send-whk_0", "send-whk_20", "send-whk_40"].sort(),
    );

    const sentTo = vi.mocked(sendEndpointDeliveries).mock.calls.map(([args]) => args.endpointId);
    expect([...new Set(sentTo)].sort()).toEqual([...plan.ids].sort());
    // (The engine may run a parallel step again on a later pass, so an endpoint can appear twice here.)
    for (const [args] of vi.mocked(sendEndpointDeliveries).mock.calls) {
      expect(args.maxDurationMs).toBe(45_000);
      expect(args.ctx.actor).toEqual({ type: "system", name: "inngest" });
    }
    expect(vi.mocked(logEndpointRound)).toHaveBeenCalledWith(expect.anything(), {
      endpoint_id: "whk_7",
      sent: 3,
      succeeded: 2,
      failed: 1,
      disabled: false,
    });
    expect(vi.mocked(purgeExpired)).toHaveBeenCalled();
    // 41 endpoints, 3 sent each; 20 of them (the odd ones) had one failure.
    expect(result).toEqual({
      endpoints: 41,
      sent: 123,
      succeeded: 103,
      failed: 20,
      purged: { events: 7, attempts: 11 },
      audit_purged: 5,
    });
  });

  it("plans and purges with the time of the run", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-20T10:00:00Z") });
    try {
      const { sendWebhooksFunction } = await import("@/lib/jobs/send-webhooks");
      const { purgeExpired } = await import("@/lib/webhooks/retention");
      plan.ids = [];
      const { result, ctx } = await new InngestTestEngine({ function: sendWebhooksFunction }).execute();
      // No endpoint, no send step.
      const stepIds = (ctx.step.run as unknown as { mock: { calls: [string][] } }).mock.calls.map((c) => c[0]);
      expect([...new Set(stepIds)].sort()).toEqual(["plan", "purge", "purge-audit"]);
      expect(plan.nows).toEqual([new Date("2026-11-20T10:00:00Z")]);
      expect(vi.mocked(purgeExpired).mock.calls[0]![0].now).toEqual(new Date("2026-11-20T10:00:00Z"));
      expect(result).toMatchObject({ endpoints: 0, sent: 0, succeeded: 0, failed: 0 });
    } finally {
      vi.useRealTimers();
    }
  });

  it("is the send-webhooks function, every minute and on the outbox's nudge, one run at a time", async () => {
    // Loaded afresh: its options are module-level constants, which mutation testing sees only as the module loads.
    vi.resetModules();
    const { sendWebhooksFunction } = await import("@/lib/jobs/send-webhooks");
    const opts = sendWebhooksFunction.opts as { id: string; triggers?: unknown[]; singleton?: unknown };
    expect(opts.id).toBe("send-webhooks");
    expect(opts.triggers).toEqual([{ cron: "* * * * *" }, { event: "webhooks/deliver" }]);
    expect(opts.singleton).toEqual({ mode: "skip" });
  });

  it("the outbox tells listeners that events were written", async () => {
    const heard = vi.fn();
    onEventsWritten(heard);
    const { recordEvents } = await import("@/lib/webhooks/outbox");
    const tx = { insert: () => ({ values: async () => undefined }), execute: async () => undefined };
    const ids = await recordEvents(
      tx as never,
      [{ orgId: "org_1", type: "tracker.updated", resourceId: "trk_1", testMode: true, data: {} }],
      new Date(),
    );
    expect(ids).toHaveLength(1);
    expect(heard).toHaveBeenCalledTimes(1);
    // Nothing written, nothing to hear, and no statement sent.
    const none = { insert: () => expect.fail("no insert for no events"), execute: () => expect.fail("no statement") };
    expect(await recordEvents(none as never, [])).toEqual([]);
    expect(heard).toHaveBeenCalledTimes(1);
    onEventsWritten(() => {});
  });
});
