import "server-only";
import { authenticateApiKey, type Authenticated } from "@/lib/auth/api-keys";
import type { Db } from "@/lib/db/tx";
import { env } from "@/lib/env";
import { clientAddress } from "./client-address";
import { ApiError } from "./errors";
import { addressLimiter, type RateDecision } from "./rate-limit";

const limitHeaders = (d: RateDecision) => ({
  "X-RateLimit-Limit": String(d.limit),
  "X-RateLimit-Remaining": String(d.remaining),
});

/**
 * The request's API key (`Authorization: Token <API_KEY>`), or 401. Requests without a valid key draw on their
 * client address's bucket (UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE), and an empty bucket answers 429 before any key is
 * looked up: guessing keys costs the database at most that many lookups per address and minute. A key that is neither
 * in the lookup cache nor recently valid draws its token before its lookup and gets it back when it is valid; a key
 * clients are using never waits on its address's bucket (docs/api.md, "Rate limiting").
 */
export async function authenticate(req: Request, db: Db): Promise<Authenticated> {
  const address = clientAddress(req);
  const perMinute = env().UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE;
  const drawn: { decision?: RateDecision } = {};
  const draw = (): RateDecision => {
    const decision = (drawn.decision = addressLimiter.take(address, perMinute));
    if (!decision.allowed) {
      throw new ApiError(
        "rate_limited",
        `Too many requests without a valid API key from this address; retry in ${decision.retryAfterSeconds} s.`,
        { headers: { ...limitHeaders(decision), "Retry-After": String(decision.retryAfterSeconds) } },
      );
    }
    return decision;
  };
  const unauthorized = (message: string) =>
    new ApiError("unauthorized", message, {
      headers: { "WWW-Authenticate": "Token", ...limitHeaders(drawn.decision ?? draw()) },
    });

  const match = req.headers.get("authorization")?.match(/^Token\s+(\S+)\s*$/i);
  if (!match?.[1]) throw unauthorized("Provide an API key as `Authorization: Token <API_KEY>`.");
  const found = await authenticateApiKey(db, match[1], { beforeUnknownLookup: draw });
  if (!found) throw unauthorized("The API key is not valid or has been revoked.");
  if (drawn.decision) addressLimiter.refund(address, perMinute);
  return found;
}
