import { CarrierError } from "@/lib/carriers/types";

/**
 * Deadlines and abortable waits for carrier calls. Every helper here removes its listeners and clears its timers
 * once it settles, so a finished call leaves nothing behind that could keep the process (or a test) alive.
 */

// AbortSignal does not expose when it will fire; withDeadline records it so the HTTP client can tell whether a
// Retry-After wait still fits before the deadline instead of sleeping into a certain timeout.
const deadlines = new WeakMap<AbortSignal, number>();

/** Epoch ms at which `signal` will abort, when it came from withDeadline (directly or via a parent). */
export function deadlineOf(signal: AbortSignal): number | undefined {
  return deadlines.get(signal);
}

export function timeoutError(label: string): CarrierError {
  return new CarrierError("carrier_timeout", `${label} did not answer in time.`);
}

const noop = (): void => {};

/**
 * Settles with `promise`, or rejects with `signal.reason` as soon as `signal` aborts, even if the work behind
 * `promise` ignores the signal. The losing promise gets a no-op handler so its late rejection is not "unhandled".
 */
export function raced<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  promise.catch(noop);
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** Waits `ms`, or rejects with `signal.reason` when it aborts first (and clears the timer then). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  if (ms <= 0) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(
      () => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Runs `run` with a signal that aborts after `ms` or when `parent` aborts, whichever comes first. Rejects with
 * `carrier_timeout` at that moment even if `run` never looks at the signal, so a hung adapter cannot stall a
 * request. A parent abort (client gone, outer deadline) also yields `carrier_timeout`: from the carrier call's
 * point of view it ran out of time. `label` names the carrier in the message ("UPS did not answer in time.").
 */
export async function withDeadline<T>(
  ms: number,
  parent: AbortSignal | undefined,
  run: (signal: AbortSignal) => Promise<T>,
  label = "The carrier",
): Promise<T> {
  const controller = new AbortController();
  const signal = controller.signal;
  const parentDeadline = parent ? deadlineOf(parent) : undefined;
  const own = Date.now() + Math.max(0, ms);
  deadlines.set(signal, parentDeadline === undefined ? own : Math.min(own, parentDeadline));

  const expire = (): void => controller.abort(timeoutError(label));
  const timer = setTimeout(expire, Math.max(0, ms));
  if (parent?.aborted) expire();
  else parent?.addEventListener("abort", expire, { once: true });

  try {
    // An adapter that throws synchronously still goes through the same cleanup.
    const work = (async () => run(signal))();
    return await raced(work, signal);
  } catch (error) {
    // A CarrierError from the work itself (e.g. carrier_rate_limited) wins over a timeout that fired later.
    if (signal.aborted && !(error instanceof CarrierError)) throw timeoutError(label);
    throw error;
  } finally {
    clearTimeout(timer);
    parent?.removeEventListener("abort", expire);
  }
}
