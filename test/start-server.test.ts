import { afterEach, describe, expect, it, vi } from "vitest";

vi.mock("@/lib/db/client", () => ({ getDb: vi.fn() }));
vi.mock("@/lib/bootstrap", () => ({ bootstrap: vi.fn() }));

afterEach(() => {
  vi.useRealTimers();
  delete process.env.TRACKER_REFRESH;
  delete process.env.WEBHOOK_DELIVERY;
  delete process.env.BATCH_RUNNER;
});

describe("server start", () => {
  it("bootstraps once the database answers, retrying in the background while it is down", async () => {
    process.env.TRACKER_REFRESH = "off";
    process.env.WEBHOOK_DELIVERY = "off";
    process.env.BATCH_RUNNER = "off";
    const { resetEnvCache } = await import("@/lib/env");
    resetEnvCache();
    const { getDb } = await import("@/lib/db/client");
    const { bootstrap } = await import("@/lib/bootstrap");
    const { startServer } = await import("@/lib/start-server");
    const down = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    vi.mocked(getDb)
      .mockRejectedValueOnce(down)
      .mockRejectedValueOnce(down)
      .mockResolvedValue({} as never);
    vi.useFakeTimers();

    await startServer(); // does not throw: requests answer 503 meanwhile
    expect(bootstrap).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(bootstrap).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(bootstrap).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(bootstrap).toHaveBeenCalledTimes(1);
  });
});
