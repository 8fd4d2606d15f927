import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { randomUUID } from "node:crypto";
import { pacerFor } from "./pacer";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Starts a take and reports whether it has let the caller go yet. */
function start(take: () => Promise<void>) {
  const state = { done: false };
  void take().then(() => (state.done = true));
  return state;
}

describe("pacerFor", () => {
  it("spaces a connection's calls to its requests-per-minute budget", async () => {
    const pacer = pacerFor(randomUUID(), 60); // one call a second
    const first = start(() => pacer.take());
    const second = start(() => pacer.take());
    const third = start(() => pacer.take());
    await vi.advanceTimersByTimeAsync(0);
    expect([first.done, second.done, third.done]).toEqual([true, false, false]);
    await vi.advanceTimersByTimeAsync(999);
    expect(second.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect([second.done, third.done]).toEqual([true, false]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(third.done).toBe(true);
  });

  it("does not wait when the last call was longer ago than the spacing", async () => {
    const pacer = pacerFor(randomUUID(), 120); // every 500 ms
    await pacer.take();
    await vi.advanceTimersByTimeAsync(5_000);
    const next = start(() => pacer.take());
    await vi.advanceTimersByTimeAsync(0);
    expect(next.done).toBe(true);
    // The spacing counts from that call, not from the earlier one.
    const after = start(() => pacer.take());
    await vi.advanceTimersByTimeAsync(499);
    expect(after.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(after.done).toBe(true);
  });

  it("is one budget per connection in the process: a second round waits its turn; another connection does not", async () => {
    const id = randomUUID();
    await pacerFor(id, 60).take();
    const sameConnection = start(() => pacerFor(id, 60).take());
    const otherConnection = start(() => pacerFor(randomUUID(), 60).take());
    await vi.advanceTimersByTimeAsync(0);
    expect(otherConnection.done).toBe(true);
    expect(sameConnection.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1000);
    expect(sameConnection.done).toBe(true);
  });

  it("starts afresh when the connection's budget changes", async () => {
    const id = randomUUID();
    const slow = pacerFor(id, 1); // a minute apart
    await slow.take();
    const changed = start(() => pacerFor(id, 600).take());
    await vi.advanceTimersByTimeAsync(0);
    expect(changed.done).toBe(true);
  });
});
