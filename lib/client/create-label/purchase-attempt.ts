import { ApiProblem } from "@/lib/client/api";
import type { Shipment } from "@/lib/schemas/shipment";

/**
 * One purchase attempt: what the clerk asked to buy and the random key that makes asking again harmless (docs/api.md,
 * "Idempotency"). A double click, Enter pressed twice or a retry after a lost answer sends the same requests with
 * the same keys, so the server replays its answer instead of buying again; a changed form is another attempt.
 */
export interface PurchaseAttempt {
  /** The `POST /v1/shipments` body as JSON: the same key with another body would be refused (422). */
  body: string;
  key: string;
  /** The draft shipment once created: a purchase the carrier refused is retried on it, not on a new draft. */
  shipment: Shipment | null;
  /** Bumped after a purchase the API answered without buying, so the next click asks again instead of a replay. */
  buyRound: number;
  /** The rate whose changed price the clerk accepted (see buy-label.ts). */
  acceptedRateId: string | null;
}

/** The attempt for this body: the current one while the form is unchanged, else a new one with a new key. */
export function attemptFor(previous: PurchaseAttempt | null, body: string, newKey: () => string): PurchaseAttempt {
  if (previous && previous.body === body) return previous;
  return { body, key: newKey(), shipment: null, buyRound: 0, acceptedRateId: null };
}

/**
 * A random attempt key. `crypto.randomUUID` exists only in secure contexts (HTTPS, localhost), and a self-hosted
 * dashboard on a pack station's network may be plain HTTP; `getRandomValues` works everywhere.
 */
export function newAttemptKey(random: Pick<Crypto, "getRandomValues"> & Partial<Pick<Crypto, "randomUUID">> = crypto) {
  if (typeof random.randomUUID === "function") return random.randomUUID();
  const bytes = random.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export const createKey = (attempt: PurchaseAttempt) => `${attempt.key}:create`;
export const buyKey = (attempt: PurchaseAttempt) =>
  attempt.buyRound === 0 ? `${attempt.key}:buy` : `${attempt.key}:buy:${attempt.buyRound}`;

/**
 * Whether the server may not have finished (or answered) the request: the network failed, the server faulted (5xx
 * frees the key), it is busy with the same key, or it limits us. Then the same key must be sent again. Anything else
 * is the server's answer, which a retry with the same key would only replay.
 */
export function isTransient(error: unknown): boolean {
  if (!(error instanceof ApiProblem)) return true;
  if (error.status >= 500 || error.status === 429) return true;
  return error.status === 409 && error.errors[0]?.code === "idempotency_in_progress";
}

/**
 * The attempt the next click continues after a failure. Transient: the same one (same keys). Creation answered
 * (refused input, no carrier could rate): nothing was stored, so the attempt ends and the next click starts afresh.
 * Purchase answered without buying (the carrier refused, the outcome is unknown, a conflict): the same draft, with a
 * new purchase key, so asking again reaches the server, which never buys twice unasked ("When an answer is lost").
 */
export function attemptAfterFailure(
  attempt: PurchaseAttempt,
  stage: "create" | "buy",
  error: unknown,
): PurchaseAttempt | null {
  if (isTransient(error)) return attempt;
  if (stage === "create") return null;
  return { ...attempt, buyRound: attempt.buyRound + 1, acceptedRateId: null };
}
