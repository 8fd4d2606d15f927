import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { StateConflictError } from "@/lib/errors";
import { log } from "@/lib/log";
import { ClaimLostError } from "./claim";
import { recordRetryPolicy, recordWithRetries } from "./record-retries";

/** Recording what a carrier already did, retried while the database is away; time moves by fake timers. */

const dbDown = () => Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" });

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout"] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** An attempt that fails `failures` times, then answers "recorded". */
function flaky(failures: number, error: () => Error = dbDown) {
  let left = failures;
  return vi.fn(async () => {
    if (left-- > 0) throw error();
    return "recorded";
  });
}

describe("recordWithRetries", () => {
  it("pauses 250 ms, 1 s, 3 s and 6 s between attempts (~10 s in all), then answers", async () => {
    expect(recordRetryPolicy.delaysMs).toEqual([250, 1000, 3000, 6000]);
    const attempt = flaky(4);
    const result = recordWithRetries(attempt);
    await vi.advanceTimersByTimeAsync(0);
    expect(attempt).toHaveBeenCalledTimes(1);
    for (const [pause, calls] of [
      [250, 2],
      [1000, 3],
      [3000, 4],
      [6000, 5],
    ] as const) {
      await vi.advanceTimersByTimeAsync(pause - 1);
      expect(attempt).toHaveBeenCalledTimes(calls - 1);
      await vi.advanceTimersByTimeAsync(1);
      expect(attempt).toHaveBeenCalledTimes(calls);
    }
    await expect(result).resolves.toBe("recorded");
  });

  it("logs each fault it retries, numbered from the first attempt, with the fault", async () => {
    const warn = vi.spyOn(log(), "warn");
    const faults = [dbDown(), dbDown()];
    const left = [...faults];
    const result = recordWithRetries(async () => {
      const fault = left.shift();
      if (fault) throw fault;
      return "recorded";
    });
    await vi.advanceTimersByTimeAsync(1_250);
    await expect(result).resolves.toBe("recorded");
    expect(warn.mock.calls.map((c) => c[0])).toEqual([
      { msg: "recording a carrier outcome failed; retrying", attempt: 1, err: faults[0] },
      { msg: "recording a carrier outcome failed; retrying", attempt: 2, err: faults[1] },
    ]);
  });

  it("gives up after the last pause with the last fault: five attempts in all", async () => {
    const attempt = flaky(5);
    const result = recordWithRetries(attempt);
    const settled = result.then(
      () => "resolved",
      (err: unknown) => err,
    );
    await vi.advanceTimersByTimeAsync(10_250);
    expect(await settled).toMatchObject({ code: "57P01" });
    expect(attempt).toHaveBeenCalledTimes(5);
  });

  it("does not retry a lost claim or a domain refusal: they are answers", async () => {
    for (const [error, kind] of [
      [() => new ClaimLostError(), ClaimLostError],
      [() => new StateConflictError("changed"), StateConflictError],
    ] as const) {
      const attempt = flaky(1, error);
      await expect(recordWithRetries(attempt)).rejects.toBeInstanceOf(kind);
      expect(attempt).toHaveBeenCalledTimes(1);
    }
  });
});
