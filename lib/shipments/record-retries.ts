import "server-only";
import { log } from "@/lib/log";
import { DomainError } from "@/lib/errors";
import { ClaimLostError } from "./claim";

/**
 * Pauses between attempts to record what a carrier already did while the database is unavailable (~10 s in all).
 * One object, so a test can shorten the pauses without a switch in any verb's signature.
 */
export const recordRetryPolicy: { delaysMs: readonly number[] } = { delaysMs: [250, 1000, 3000, 6000] };

/**
 * Records the outcome of a carrier operation that already happened (a label bought, a label voided): the database
 * being away for a few seconds must not lose it. `attempt` is told how many tries came before (0 the first time). A lost claim or a domain refusal is an answer, not a fault: not retried.
 */
export async function recordWithRetries<T>(attempt: (retry: number) => Promise<T>): Promise<T> {
  const delays = recordRetryPolicy.delaysMs;
  for (let i = 0; ; i++) {
    try {
      return await attempt(i);
    } catch (err) {
      if (err instanceof ClaimLostError || err instanceof DomainError || i >= delays.length) throw err;
      log().warn({ msg: "recording a carrier outcome failed; retrying", attempt: i + 1, err });
      await new Promise((r) => setTimeout(r, delays[i]));
    }
  }
}
