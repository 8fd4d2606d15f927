import { afterEach, describe, expect, it, vi } from "vitest";
import { sandboxAdapter } from "@/lib/carriers/sandbox/adapter";
import { upsAdapter } from "@/lib/carriers/ups/adapter";
import { refreshBudget, refreshTimeScale } from "./budget";

describe("refreshBudget", () => {
  it("is the adapter's published budget when the connection overrides nothing", () => {
    expect(refreshBudget(sandboxAdapter, {})).toEqual({ concurrency: 4, requestsPerMinute: 6000, batchSize: 30 });
    expect(refreshBudget(upsAdapter, {})).toEqual({ concurrency: 2, requestsPerMinute: 120, batchSize: 1 });
  });

  it("takes each number the connection's config sets, and only numbers", () => {
    expect(
      refreshBudget(sandboxAdapter, { refresh_concurrency: 1, refresh_requests_per_minute: 30, refresh_batch_size: 5 }),
    ).toEqual({ concurrency: 1, requestsPerMinute: 30, batchSize: 5 });
    expect(refreshBudget(sandboxAdapter, { refresh_requests_per_minute: 10 })).toEqual({
      concurrency: 4,
      requestsPerMinute: 10,
      batchSize: 30,
    });
    expect(
      refreshBudget(sandboxAdapter, {
        refresh_concurrency: "8",
        refresh_requests_per_minute: null,
        refresh_batch_size: {},
      }),
    ).toEqual({ concurrency: 4, requestsPerMinute: 6000, batchSize: 30 });
  });

  it("asks one tracking number per call of a carrier that cannot batch, whatever the config says", () => {
    expect(refreshBudget(upsAdapter, { refresh_batch_size: 50 }).batchSize).toBe(1);
  });
});

describe("refreshTimeScale", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("shortens due times by the sandbox's pace", () => {
    expect(refreshTimeScale({ carrierName: "sandbox", config: { pace: 120 } })).toBeCloseTo(1 / 120);
    expect(refreshTimeScale({ carrierName: "sandbox", config: {} })).toBeCloseTo(1 / 360);
    expect(refreshTimeScale({ carrierName: "sandbox", config: { pace: 1 } })).toBe(1);
  });

  it("is real time for a real carrier, an unknown one, or a sandbox config that does not read", () => {
    expect(refreshTimeScale({ carrierName: "ups", config: { pace: 120 } })).toBe(1);
    expect(refreshTimeScale({ carrierName: "no-such-carrier", config: {} })).toBe(1);
    expect(refreshTimeScale({ carrierName: "sandbox", config: { pace: "fast" } })).toBe(1);
  });

  it("is real time, never infinitely fast, for a pace of zero", () => {
    vi.spyOn(sandboxAdapter, "simulatedPace").mockReturnValue(0);
    expect(refreshTimeScale({ carrierName: "sandbox", config: {} })).toBe(1);
  });
});
