import { afterEach, vi } from "vitest";
import { log } from "@/lib/log";

/**
 * Time as an input for tests whose code waits on timers (a delivery's or a carrier's deadline, a Retry-After pause,
 * a carrier's latency) while real I/O runs beside it (sockets, DNS, the database): only setTimeout is faked, and the
 * test says when the clock moves and how far, never in step with real time. Fake after the database pool is open (postgres.js connect timeouts).
 */
export function fakeTimeouts() {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
}

/** The hooks of a file that fakes timers in some tests: the real clock back after each. */
export function useRealTimersAfterEach() {
  afterEach(() => {
    vi.useRealTimers();
  });
}

function settledFlag(work: Promise<unknown>): () => boolean {
  let settled = false;
  const over = () => {
    settled = true;
  };
  work.then(over, over);
  return () => settled;
}

/**
 * Waits for `work` on fake timers without moving the clock. Timers due at this very instant still run (the
 * Postgres driver opens a connection on a zero-delay timer), so only what waits for time to pass waits for the test.
 */
export async function clockStill<T>(work: Promise<T>): Promise<T> {
  await clockStillUntil(settledFlag(work));
  return work;
}

/** Resolves once `condition()` holds, checked at every turn of I/O, with the clock standing still (as clockStill). */
async function clockStillUntil(condition: () => boolean): Promise<void> {
  while (!condition()) {
    await vi.advanceTimersByTimeAsync(0);
    await new Promise((r) => setImmediate(r));
  }
}

/**
 * Runs `work` to its end on fake timers when it ends at a deadline: the clock stands still until `started()` says
 * the work is waiting on its deadline (the carrier has the call), then moves `deadlineMs` on at once.
 */
export async function atDeadline<T>(work: Promise<T>, started: () => boolean, deadlineMs: number): Promise<T> {
  const settled = settledFlag(work);
  await clockStillUntil(() => started() || settled());
  await vi.advanceTimersByTimeAsync(deadlineMs);
  return clockStill(work);
}

/**
 * Runs `work` to its end on fake timers when a carrier call in it pauses before trying again (a `Retry-After`, a
 * backoff): the clock stands still until the carrier client logs that it will retry, then moves by exactly the pause
 * it logged (`retry_in_ms`), once per pause. Nothing else is moved, so no deadline fires early.
 */
export async function pastRetryPauses<T>(work: Promise<T>): Promise<T> {
  const settled = settledFlag(work);
  const info = vi.spyOn(log(), "info");
  const pauses = () =>
    info.mock.calls.flatMap(([line]) => {
      const pause = (line as { retry_in_ms?: unknown } | undefined)?.retry_in_ms;
      return typeof pause === "number" ? [pause] : [];
    });
  try {
    for (let moved = 0; ; moved++) {
      await clockStillUntil(() => settled() || pauses().length > moved);
      if (settled()) return await work;
      await vi.advanceTimersByTimeAsync(pauses()[moved]!);
    }
  } finally {
    info.mockRestore();
  }
}
