import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Sql } from "postgres";
import { CheckTimeoutError, checkAlone, StallWatch } from "./stall-watch";
import { isDatabaseUnavailable, isDatabaseUnreachable } from "./unavailable";

const timedOut = Object.assign(new Error("write CONNECT_TIMEOUT 10.0.0.9:5432"), { code: "CONNECT_TIMEOUT" });
const tooMany = Object.assign(new Error("sorry, too many clients already"), { code: "53300" });

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** A watch whose checks take `checkMs` and then answer with the next outcome (null: reached), the last one after. */
function watchWith(outcomes: (Error | null)[], checkMs = 10) {
  const check = vi.fn(async () => {
    await new Promise((resolve) => setTimeout(resolve, checkMs));
    const outcome = outcomes.length > 1 ? outcomes.shift() : outcomes[0];
    if (outcome) throw outcome;
  });
  const unreachable: unknown[] = [];
  const watch = new StallWatch({
    stallMs: 500,
    checkEveryMs: 1_000,
    check,
    onUnreachable: (err) => unreachable.push(err),
  });
  return { watch, check, unreachable };
}

/** Work that ends when told to. */
function work() {
  let end!: () => void;
  const promise = new Promise<string>((resolve) => (end = () => resolve("done")));
  return { promise, end };
}

describe("the watch over work in flight", () => {
  it("checks nothing while work ends within the stall time, and answers the work unchanged", async () => {
    const { watch, check } = watchWith([null]);
    for (let i = 0; i < 5; i++) {
      const w = work();
      const tracked = watch.track(w.promise);
      await vi.advanceTimersByTimeAsync(400);
      w.end();
      expect(await tracked).toBe("done");
    }
    await vi.advanceTimersByTimeAsync(5_000);
    expect(check).not.toHaveBeenCalled();
    const failing = watch.track(Promise.reject(timedOut));
    await expect(failing).rejects.toBe(timedOut);
  });

  it("checks once the oldest work is in flight past the stall time, then at most once a second, one at a time", async () => {
    const { watch, check, unreachable } = watchWith([null], 1_500);
    const long = work();
    void watch.track(long.promise);
    await vi.advanceTimersByTimeAsync(499);
    expect(check).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(check).toHaveBeenCalledTimes(1);
    // The check takes 1.5 s: none starts beside it (more work meanwhile or not), and the next starts as it ends.
    await vi.advanceTimersByTimeAsync(100);
    const more = work();
    void watch.track(more.promise);
    await vi.advanceTimersByTimeAsync(1_390);
    expect(check).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(20);
    expect(check).toHaveBeenCalledTimes(2);
    long.end();
    more.end();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(check).toHaveBeenCalledTimes(2);
    expect(unreachable).toEqual([]);
  });

  it("a long but healthy query costs one cheap check a second, never an error", async () => {
    const { watch, check, unreachable } = watchWith([null]);
    const long = work();
    const tracked = watch.track(long.promise);
    // At 0.5 s, 1.5 s, …, 9.5 s.
    await vi.advanceTimersByTimeAsync(10_400);
    expect(check).toHaveBeenCalledTimes(10);
    long.end();
    expect(await tracked).toBe("done");
    expect(unreachable).toEqual([]);
  });

  it("waits for the work in flight now, not the work that ended", async () => {
    const { watch, check } = watchWith([null]);
    const first = work();
    void watch.track(first.promise);
    await vi.advanceTimersByTimeAsync(300);
    const second = work();
    void watch.track(second.promise);
    first.end();
    await vi.advanceTimersByTimeAsync(450);
    expect(check).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(50);
    expect(check).toHaveBeenCalledTimes(1);
    second.end();
  });

  it("tells a check that could not reach the database; its own errors are not that", async () => {
    const { watch, check, unreachable } = watchWith([tooMany, timedOut, new CheckTimeoutError(750)]);
    const stuck = work();
    void watch.track(stuck.promise);
    await vi.advanceTimersByTimeAsync(520);
    expect(unreachable).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(unreachable).toEqual([timedOut]);
    // The pool was given up on: its work is watched no longer, so nothing more is checked for it.
    watch.forget();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(check).toHaveBeenCalledTimes(2);
    // A check whose own deadline passed counts as unreachable, and is answered 503 like the rest.
    void watch.track(work().promise);
    await vi.advanceTimersByTimeAsync(520);
    expect(unreachable).toHaveLength(2);
    expect(isDatabaseUnreachable(unreachable[1])).toBe(true);
    expect(isDatabaseUnavailable(unreachable[1])).toBe(true);
    watch.stop();
  });

  it("checks nothing once stopped, and tells nothing of a check that ends after", async () => {
    const { watch, check, unreachable } = watchWith([timedOut], 300);
    void watch.track(work().promise);
    await vi.advanceTimersByTimeAsync(600);
    expect(check).toHaveBeenCalledTimes(1);
    watch.stop();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(check).toHaveBeenCalledTimes(1);
    expect(unreachable).toEqual([]);
  });
});

describe("a check on a client of its own", () => {
  function fakeClient(answer: () => Promise<unknown>) {
    const end = vi.fn(async () => {});
    const sql = Object.assign(() => answer(), { end }) as unknown as Sql;
    return { sql, end };
  }

  it("answers when the database does, then ends its client at once", async () => {
    const client = fakeClient(async () => [{ "?column?": 1 }]);
    await checkAlone(() => client.sql, 750);
    expect(client.end).toHaveBeenCalledWith({ timeout: 0 });
  });

  it("gives up at its deadline whatever it waits on, and ends its client", async () => {
    const client = fakeClient(() => new Promise(() => {}));
    const checking = checkAlone(() => client.sql, 750);
    const outcome = expect(checking).rejects.toBeInstanceOf(CheckTimeoutError);
    await vi.advanceTimersByTimeAsync(750);
    await outcome;
    expect(client.end).toHaveBeenCalledWith({ timeout: 0 });
  });

  it("fails as the connection did", async () => {
    const client = fakeClient(() => Promise.reject(timedOut));
    await expect(checkAlone(() => client.sql, 750)).rejects.toBe(timedOut);
    expect(client.end).toHaveBeenCalledTimes(1);
  });
});
