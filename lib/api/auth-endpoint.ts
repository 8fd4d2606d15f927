import "server-only";
import { authFor } from "@/lib/auth/better-auth";
import { getDb, isDatabaseDown } from "@/lib/db/client";
import { isDatabaseUnavailable } from "@/lib/db/unavailable";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { clientAddress } from "./client-address";
import { RateLimiter } from "./rate-limit";

// Attempts to sign in or create an account guess passwords or fill the users table; both are limited per client
// address (as the front door sees it, TRUST_PROXY-aware), and signing in per email address as well, so one account
// cannot be guessed at from many addresses faster than SIGN_IN_RATE_LIMIT_PER_EMAIL_HOUR a hour.
const LIMITED = new Set(["/api/auth/sign-in/email", "/api/auth/sign-up/email", "/api/auth/change-password"]);
const g = globalThis as unknown as { __shipwellSignInByAddress?: RateLimiter; __shipwellSignInByEmail?: RateLimiter };
const byAddress = (g.__shipwellSignInByAddress ??= new RateLimiter());
const byEmail = (g.__shipwellSignInByEmail ??= new RateLimiter());

function tooMany(retryAfterSeconds: number): Response {
  // better-auth's error shape, which the sign-in form already reads.
  return Response.json(
    { code: "RATE_LIMITED", message: `Too many attempts. Try again in ${retryAfterSeconds} s.` },
    { status: 429, headers: { "Retry-After": String(retryAfterSeconds), "Cache-Control": "no-store" } },
  );
}

async function emailOf(req: Request): Promise<string | null> {
  try {
    const body = (await req.clone().json()) as { email?: unknown };
    return typeof body.email === "string" ? body.email.trim().toLowerCase().slice(0, 254) : null;
  } catch {
    return null;
  }
}

/** better-auth's endpoints under /api/auth (sign-up, sign-in, sign-out, sessions, password), behind our limits. */
export async function authEndpoint(req: Request): Promise<Response> {
  const path = new URL(req.url).pathname;
  if (req.method === "POST" && LIMITED.has(path)) {
    const perMinute = env().SIGN_IN_RATE_LIMIT_PER_MINUTE;
    const byAddr = byAddress.take(clientAddress(req), perMinute);
    if (!byAddr.allowed) return tooMany(byAddr.retryAfterSeconds);
    const email = path.endsWith("/sign-in/email") ? await emailOf(req) : null;
    if (email) {
      const decision = byEmail.take(email, env().SIGN_IN_RATE_LIMIT_PER_EMAIL_HOUR, 3_600_000);
      if (!decision.allowed) {
        log().warn({ msg: "sign-in attempts limited for an account" });
        return tooMany(decision.retryAfterSeconds);
      }
    }
  }
  // While the database is known to be away, better-auth is not asked: it would fail, and log the failed query with
  // its parameters (an email address).
  if (isDatabaseDown()) return databaseDown();
  let response: Response;
  try {
    response = await authFor(await getDb()).handler(req);
  } catch (err) {
    // The database could not be opened (down since the start).
    if (!isDatabaseUnavailable(err)) throw err;
    return databaseDown();
  }
  // better-auth answers a failed query with a bare 500; while the database is away that is an outage (503, as the
  // API answers it), not a fault of ours.
  if (response.status === 500 && isDatabaseDown()) return databaseDown();
  response.headers.set("Cache-Control", "no-store");
  return response;
}

function databaseDown(): Response {
  return Response.json(
    { code: "UNAVAILABLE", message: "The service is temporarily unavailable. Try again shortly." },
    { status: 503, headers: { "Retry-After": "5", "Cache-Control": "no-store" } },
  );
}

/** Tests start each case with full buckets. */
export function resetSignInLimits(): void {
  byAddress.reset();
  byEmail.reset();
}
