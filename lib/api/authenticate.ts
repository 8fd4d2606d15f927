import "server-only";
import { authenticateApiKey } from "@/lib/auth/api-keys";
import type { Role } from "@/lib/auth/roles";
import { hasSessionCookie } from "@/lib/auth/session-cookie";
import { signedInUser } from "@/lib/auth/sessions";
import { fromThisSite } from "@/lib/auth/site-origin";
import type { Db } from "@/lib/db/tx";
import { env } from "@/lib/env";
import { clientAddress } from "./client-address";
import { ApiError } from "./errors";
import { addressLimiter, type RateDecision } from "./rate-limit";

const limitHeaders = (d: RateDecision) => ({
  "X-RateLimit-Limit": String(d.limit),
  "X-RateLimit-Remaining": String(d.remaining),
});

/** Who a request acts as: an API key (for its whole organization) or a signed-in person with a role there. */
export type Caller =
  | { type: "api_key"; id: string; name: string; orgId: string; apiVersion: string }
  | { type: "user"; id: string; orgId: string; role: Role };

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The request's caller: an API key in `Authorization`, else the dashboard's session cookie (docs/api.md,
 * "Authentication and tenancy"). A key always wins, so an API client that also holds a cookie is judged by its key.
 * A cookie-authenticated write must come from our own pages (its `Origin`), else 403: a cookie is sent by the
 * browser whoever wrote the page, a key is not.
 */
export async function authenticate(req: Request, db: Db): Promise<Caller> {
  if (req.headers.get("authorization") !== null || !hasSessionCookie(req.headers.get("cookie"))) {
    const key = await authenticateKey(req, db);
    return { type: "api_key", id: key.keyId, name: key.name, orgId: key.orgId, apiVersion: key.apiVersion };
  }
  const signedIn = await signedInUser(db, req.headers);
  if (!signedIn) {
    throw new ApiError("unauthorized", "The session has expired or was signed out; sign in again.", {
      headers: { "WWW-Authenticate": "Token" },
    });
  }
  if (!SAFE_METHODS.has(req.method) && !fromThisSite(req)) {
    throw new ApiError(
      "forbidden",
      "A request signed in with a session cookie may only change data from this site's own pages (its Origin header).",
    );
  }
  return { type: "user", id: signedIn.user.id, orgId: signedIn.membership.orgId, role: signedIn.membership.role };
}

/**
 * The request's API key (`Authorization: Token <API_KEY>`), or 401. Requests without a valid key draw on their
 * client address's bucket (UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE), and an empty bucket answers 429 before any key is
 * looked up: guessing keys costs the database at most that many lookups per address and minute. A key that is neither
 * in the lookup cache nor recently valid draws its token before its lookup and gets it back when it is valid; a key
 * clients are using never waits on its address's bucket (docs/api.md, "Rate limiting").
 */
async function authenticateKey(req: Request, db: Db) {
  const address = clientAddress(req);
  const perMinute = env().UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE;
  const drawn: { decision?: RateDecision } = {};
  const draw = async (): Promise<RateDecision> => {
    const decision = (drawn.decision = await addressLimiter.admit(address, perMinute));
    if (!decision.allowed) {
      throw new ApiError(
        "rate_limited",
        `Too many requests without a valid API key from this address; retry in ${decision.retryAfterSeconds} s.`,
        { headers: { ...limitHeaders(decision), "Retry-After": String(decision.retryAfterSeconds) } },
      );
    }
    return decision;
  };
  const unauthorized = async (message: string) =>
    new ApiError("unauthorized", message, {
      headers: { "WWW-Authenticate": "Token", ...limitHeaders(drawn.decision ?? (await draw())) },
    });

  const match = req.headers.get("authorization")?.match(/^Token\s+(\S+)\s*$/i);
  if (!match?.[1]) throw await unauthorized("Provide an API key as `Authorization: Token <API_KEY>`.");
  const found = await authenticateApiKey(db, match[1], { beforeUnknownLookup: draw });
  if (!found) throw await unauthorized("The API key is not valid or has been revoked.");
  if (drawn.decision) addressLimiter.refund(address, perMinute);
  return found;
}
