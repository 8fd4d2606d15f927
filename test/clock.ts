import { afterEach, vi } from "vitest";

/**
 * Time as an input for tests whose code waits on timers (a delivery's or a carrier's deadline, a Retry-After pause,
 * a carrier's latency) while real I/O runs beside it (sockets, DNS, the database): only setTimeout is faked, and the
 * test says how the clock moves. Fake after the database pool is open (postgres.js connect timeouts).
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
  const settled = settledFlag(work);
  while (!settled()) {
    await vi.advanceTimersByTimeAsync(0);
    await new Promise((r) => setImmediate(r));
  }
  return work;
}

/**
 * Waits for `work` on fake timers, moving the clock `stepMs` on after every turn of I/O: a deadline or a pause of
 * seconds passes in a few hundred turns, however long they take for real. For work whose outcome does not depend
 * on how far the clock moves while its I/O is under way (an answer that never comes, a pause before a retry).
 */
export async function clockRunning<T>(work: Promise<T>, stepMs = 10): Promise<T> {
  const settled = settledFlag(work);
  while (!settled()) {
    await new Promise((r) => setImmediate(r));
    if (!settled()) await vi.advanceTimersByTimeAsync(stepMs);
  }
  return work;
}
