/** Retry policy pieces: how long a carrier asks us to wait, how long we back off, and what a network error means. */

/** `Retry-After` as milliseconds from `now`: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * Exponential backoff with "equal jitter": half the step is fixed so retries are not immediate, half is random so
 * many callers that failed together (a carrier blip during a rate fan-out) do not hammer it again in lockstep.
 */
export function backoffDelay(baseDelayMs: number, retryNumber: number, random = Math.random): number {
  const step = baseDelayMs * 2 ** Math.max(0, retryNumber - 1);
  return Math.round(step / 2 + random() * (step / 2));
}

// Failures that happen before a single byte of the request left: the carrier cannot have acted on it, so even a
// label purchase may be tried again.
const NOT_SENT = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/** The first system error code in an error's cause chain (undici wraps it: TypeError("fetch failed").cause.code). */
export function networkErrorCode(error: unknown, depth = 0): string | undefined {
  if (!error || typeof error !== "object" || depth > 5) return undefined;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === "string") return code;
  if (Array.isArray(errors)) {
    for (const inner of errors) {
      const found = networkErrorCode(inner, depth + 1);
      if (found) return found;
    }
  }
  return networkErrorCode(cause, depth + 1);
}

export function requestNeverSent(code: string | undefined): boolean {
  return code !== undefined && NOT_SENT.has(code);
}
