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

  it("shares the rate limits through Postgres, and keeps them in memory on the embedded database", async () => {
    const saved = { DATABASE_URL: process.env.DATABASE_URL, ENCRYPTION_KEY: process.env.ENCRYPTION_KEY };
    process.env.TRACKER_REFRESH = "off";
    process.env.WEBHOOK_DELIVERY = "off";
    process.env.BATCH_RUNNER = "off";
    const { resetEnvCache } = await import("@/lib/env");
    const { getDb } = await import("@/lib/db/client");
    const { RateLimiter } = await import("@/lib/api/rate-limit");
    const { startServer } = await import("@/lib/start-server");
    vi.mocked(getDb).mockResolvedValue({} as never);
    // Each shared limiter would settle on a timer: only who shares is counted.
    const share = vi.spyOn(RateLimiter.prototype, "share").mockImplementation(() => {});
    try {
      delete process.env.DATABASE_URL;
      resetEnvCache();
      await startServer();
      expect(share).not.toHaveBeenCalled();

      process.env.DATABASE_URL = "postgres://postgres@127.0.0.1:1/never-opened";
      process.env.ENCRYPTION_KEY ??= "0".repeat(64);
      resetEnvCache();
      await startServer();
      // Per key (and person), per address, and sign-in's per address and per account.
      expect(share).toHaveBeenCalledTimes(4);
    } finally {
      share.mockRestore();
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      resetEnvCache();
    }
  });
});
