import { getEventListeners } from "node:events";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CarrierError } from "@/lib/carriers/types";
import { deadlineOf, raced, sleep, withDeadline } from "./deadline";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const listeners = (signal: AbortSignal) => getEventListeners(signal, "abort").length;

describe("raced", () => {
  it("settles with the work and leaves no listener behind", async () => {
    const controller = new AbortController();
    await expect(raced(Promise.resolve(7), controller.signal)).resolves.toBe(7);
    await expect(raced(Promise.reject(new Error("no")), controller.signal)).rejects.toThrow("no");
    expect(listeners(controller.signal)).toBe(0);
  });

  it("rejects with the abort's reason as soon as the signal aborts, or at once when it already has", async () => {
    const controller = new AbortController();
    const pending = raced(new Promise(() => {}), controller.signal);
    controller.abort(new Error("gone"));
    await expect(pending).rejects.toThrow("gone");
    expect(listeners(controller.signal)).toBe(0);
    await expect(raced(Promise.resolve(1), controller.signal)).rejects.toThrow("gone");
  });
});

describe("sleep", () => {
  it("waits the time given, then lets go of the signal", async () => {
    const controller = new AbortController();
    let done = false;
    void sleep(1_000, controller.signal).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
    expect(listeners(controller.signal)).toBe(0);
    await expect(sleep(0, controller.signal)).resolves.toBeUndefined();
  });

  it("stops waiting when the signal aborts, and clears its timer", async () => {
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal);
    controller.abort(new Error("cancelled"));
    await expect(waiting).rejects.toThrow("cancelled");
    expect(vi.getTimerCount()).toBe(0);
    expect(listeners(controller.signal)).toBe(0);
    await expect(sleep(10, controller.signal)).rejects.toThrow("cancelled");
  });
});

describe("withDeadline", () => {
  it("answers carrier_timeout at the deadline even if the work never looks at its signal", async () => {
    const late = withDeadline(500, undefined, () => new Promise(() => {}), "UPS");
    const caught = late.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(499);
    await vi.advanceTimersByTimeAsync(1);
    const error = (await caught) as CarrierError;
    expect(error).toBeInstanceOf(CarrierError);
    expect(error.messages[0]).toMatchObject({ code: "carrier_timeout", message: "UPS did not answer in time." });
    const unnamed = withDeadline(10, undefined, () => new Promise(() => {})).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10);
    expect(await unnamed).toMatchObject({ message: "The carrier did not answer in time." });
  });

  it("times out with its parent: at once when the parent already aborted, else when it aborts", async () => {
    const gone = new AbortController();
    gone.abort();
    await expect(withDeadline(10_000, gone.signal, () => new Promise(() => {}))).rejects.toMatchObject({
      messages: [{ code: "carrier_timeout" }],
    });
    const parent = new AbortController();
    const call = withDeadline(10_000, parent.signal, () => new Promise(() => {}));
    parent.abort();
    await expect(call).rejects.toMatchObject({ messages: [{ code: "carrier_timeout" }] });
    expect(listeners(parent.signal)).toBe(0);
  });

  it("lets go of a parent that never aborted once the work is done", async () => {
    const parent = new AbortController();
    await expect(withDeadline(1_000, parent.signal, async () => "answer")).resolves.toBe("answer");
    expect(listeners(parent.signal)).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("keeps the nearer of its own and its parent's deadlines", async () => {
    const now = Date.now();
    await withDeadline(1_000, undefined, async (outer) => {
      expect(deadlineOf(outer)).toBe(now + 1_000);
      await withDeadline(5_000, outer, async (inner) => expect(deadlineOf(inner)).toBe(now + 1_000));
      await withDeadline(200, outer, async (inner) => expect(deadlineOf(inner)).toBe(now + 200));
    });
  });

  it("passes the work's own errors through untouched, and leaves no timer behind", async () => {
    const bug = new TypeError("adapter bug");
    await expect(withDeadline(1_000, undefined, () => Promise.reject(bug))).rejects.toBe(bug);
    const refused = new CarrierError("carrier_rate_limited", "Slow down.");
    await expect(withDeadline(1_000, undefined, () => Promise.reject(refused))).rejects.toBe(refused);
    await expect(
      withDeadline(1_000, undefined, () => {
        throw bug;
      }),
    ).rejects.toBe(bug);
    expect(vi.getTimerCount()).toBe(0);
  });
});
