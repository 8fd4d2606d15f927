import { describe, expect, it, vi } from "vitest";
import type { SystemContext } from "@/lib/context";
import { logConnectionRound, type ConnectionRoundReport } from "./refresh-connection";

const quiet: ConnectionRoundReport = {
  connection_id: "conn_1",
  carrier_name: "sandbox",
  due: 4,
  refreshed: 4,
  changed: 1,
  failed: 0,
  backed_off: 0,
  rate_limited_calls: 0,
  deferred: 0,
  requests: 1,
  duration_ms: 12,
};

function logged(report: ConnectionRoundReport) {
  const log = { info: vi.fn(), warn: vi.fn() };
  logConnectionRound({ log, actor: { type: "system", name: "in_process" } } as unknown as SystemContext, report);
  return log;
}

describe("logConnectionRound", () => {
  it("says nothing of a round that had nothing due", () => {
    const log = logged({ ...quiet, due: 0, refreshed: 0, requests: 0 });
    expect(log.info).not.toHaveBeenCalled();
    expect(log.warn).not.toHaveBeenCalled();
  });

  it("logs a clean round at info, with the runner and the whole report", () => {
    const log = logged(quiet);
    expect(log.warn).not.toHaveBeenCalled();
    expect(log.info).toHaveBeenCalledWith({ msg: "tracker_refresh", runner: "in_process", ...quiet });
  });

  it.each([
    ["failed", { failed: 1 }],
    ["backed off", { backed_off: 2 }],
    ["rate-limited", { rate_limited_calls: 1 }],
  ])("warns when trackers %s", (_, change) => {
    const log = logged({ ...quiet, ...change });
    expect(log.info).not.toHaveBeenCalled();
    expect(log.warn).toHaveBeenCalledWith(expect.objectContaining({ msg: "tracker_refresh", ...change }));
  });
});
