import { describe, expect, it, vi } from "vitest";
import type { SystemContext } from "@/lib/context";
import { logEndpointRound, type EndpointRoundReport } from "./send-due";

/** The one log line of an endpoint worker (send-due.ts), without a database. */

function fakeCtx() {
  const log = { info: vi.fn(), warn: vi.fn() };
  return { ctx: { log } as unknown as SystemContext, log };
}

const report = (sent: number, failed: number): EndpointRoundReport => ({
  endpoint_id: "whe_1",
  sent,
  succeeded: sent - failed,
  failed,
  disabled: false,
});

describe("logEndpointRound", () => {
  it("says nothing when the worker sent nothing", () => {
    const { ctx, log } = fakeCtx();
    logEndpointRound(ctx, report(0, 0));
    expect(log.info).not.toHaveBeenCalled();
    expect(log.warn).not.toHaveBeenCalled();
  });

  it("logs the report at info when every attempt succeeded", () => {
    const { ctx, log } = fakeCtx();
    logEndpointRound(ctx, report(2, 0));
    expect(log.info).toHaveBeenCalledExactlyOnceWith({ msg: "webhook_deliveries", ...report(2, 0) });
    expect(log.warn).not.toHaveBeenCalled();
  });

  it("logs the report at warn when an attempt failed", () => {
    const { ctx, log } = fakeCtx();
    logEndpointRound(ctx, report(1, 1));
    expect(log.warn).toHaveBeenCalledExactlyOnceWith({ msg: "webhook_deliveries", ...report(1, 1) });
    expect(log.info).not.toHaveBeenCalled();
  });
});
