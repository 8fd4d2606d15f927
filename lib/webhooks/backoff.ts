/**
 * When a failed delivery is tried again (docs/webhooks.md, "Retries"): the delay after the n-th failed attempt, each
 * with ±10 % jitter so that receivers coming back from an outage are not hit by every sender at the same second.
 * The first eight steps are the ones the issue names; the 10-hour steps then continue until the schedule covers about
 * three days (the last retry lands about 77½ h after the first attempt, 13 attempts in all). After the last, the delivery is `failed`; it can
 * still be sent again with `POST /v1/events/{id}/redeliver`.
 */
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export const RETRY_DELAYS_MS: readonly number[] = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
  10 * HOUR,
  10 * HOUR,
  10 * HOUR,
  10 * HOUR,
  10 * HOUR,
];

/** Attempts a delivery gets in all: the first one and a retry per step of the schedule. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

const JITTER = 0.1;

/**
 * When to try again after `attempts` attempts have failed (1 after the first), or null when the schedule is over.
 * `random` is injectable (tests pin it): 0 gives −10 %, 0.5 the nominal delay, 1 gives +10 %.
 */
export function nextAttemptAt(attempts: number, after: Date, random: () => number = Math.random): Date | null {
  const base = RETRY_DELAYS_MS[attempts - 1];
  if (base === undefined) return null;
  const factor = 1 - JITTER + 2 * JITTER * random();
  return new Date(after.getTime() + Math.round(base * factor));
}
