import "server-only";
import { createHash } from "node:crypto";
import { authFor } from "@/lib/auth/better-auth";
import { sessionCookieValue } from "@/lib/auth/session-cookie";
import { recordSignIn } from "@/lib/audit/account";
import { getDb } from "@/lib/db/client";
import { isDatabaseDown } from "@/lib/db/down";
import type { Db } from "@/lib/db/tx";
import { isDatabaseUnavailable } from "@/lib/db/unavailable";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { requestOrigin } from "@/lib/audit/request-origin";
import { rawInputProblems } from "@/lib/validation";
import { clientAddress } from "./client-address";
import { ApiError } from "./errors";
import { RateLimiter } from "./rate-limit";
import { requestIdFrom } from "./request-id";
import { postgresSettle } from "./rate-limit-store";
import { readBytes } from "./with-api";

// Every endpoint that checks a password (or, at sign-up, hashes one) costs a scrypt hash per call and lets a caller
// guess: all are limited per client address (as the front door sees it, TRUST_PROXY-aware), and per account as well,
// so one account cannot be guessed at from many addresses faster than SIGN_IN_RATE_LIMIT_PER_EMAIL_HOUR an hour: by
// the email a sign-in names, by the session a signed-in check (verify-password, change-password, delete-user) uses.
const LIMITED = new Set([
  "/api/auth/sign-in/email",
  "/api/auth/sign-up/email",
  "/api/auth/change-password",
  "/api/auth/verify-password",
  "/api/auth/delete-user",
  "/api/auth/reset-password",
]);
const SIGN_IN = "/api/auth/sign-in/email";
const g = globalThis as unknown as { __shipwellSignInByAddress?: RateLimiter; __shipwellSignInByEmail?: RateLimiter };
const byAddress = (g.__shipwellSignInByAddress ??= new RateLimiter());
const byAccount = (g.__shipwellSignInByEmail ??= new RateLimiter());

/** The path as better-auth's router matches it: any case, repeated or trailing slashes folded. */
const routeOf = (pathname: string) =>
  pathname
    .toLowerCase()
    .replace(/\/{2,}/g, "/")
    .replace(/(.)\/+$/, "$1");

/** A refusal of ours, in better-auth's error shape, which the dashboard's forms already read. */
function refusal(status: number, code: string, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ code, message }, { status, headers: { ...headers, "Cache-Control": "no-store" } });
}

function tooMany(retryAfterSeconds: number): Response {
  return refusal(429, "RATE_LIMITED", `Too many attempts. Try again in ${retryAfterSeconds} s.`, {
    "Retry-After": String(retryAfterSeconds),
  });
}

/** The email a JSON body names, trimmed and lower-cased; null when it names none. */
function emailOf(body: unknown): string | null {
  const email = (body as { email?: unknown } | undefined)?.email;
  return typeof email === "string" ? email.trim().toLowerCase().slice(0, 254) : null;
}

/** Whose password an attempt tries: the email a sign-in names, else the session it is made in (hashed: never kept). */
function accountOf(req: Request, body: unknown, route: string): string | null {
  if (route.endsWith("/sign-in/email")) {
    const email = emailOf(body);
    return email ? `email:${email}` : null;
  }
  const token = sessionCookieValue(req.headers.get("cookie"));
  return token ? `session:${createHash("sha256").update(token).digest("base64url")}` : null;
}

/**
 * better-auth also takes sign-in and sign-up as an HTML form (`application/x-www-form-urlencoded`), which emailOf does
 * not read: such a sign-in escaped the per-account limit and the audit log. Our pages send JSON only, so a password
 * endpoint takes JSON only (as better-auth's router does for the others), and a cross-site form cannot post one either.
 */
const isJson = (req: Request) =>
  (req.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase() === "application/json";

/** The input rules every /v1 body keeps (docs/api.md, "Requests"), in better-auth's error shape; null when kept. */
function bodyProblem(body: unknown): Response | null {
  const [first] = rawInputProblems(body);
  if (!first) return null;
  return refusal(400, "VALIDATION_ERROR", first.field ? `${first.field} ${first.message}` : first.message);
}

/** A JSON body's value, parsed once for the limits, the input rules and the audit; undefined when it is not JSON. */
function parsed(req: Request, bytes: Uint8Array): unknown {
  if (!isJson(req) || bytes.byteLength === 0) return undefined;
  try {
    // TextDecoder drops a byte-order mark, as better-auth's own reading (Request.json) does.
    return JSON.parse(new TextDecoder().decode(bytes)) as unknown;
  } catch {
    return undefined; // better-auth answers that itself
  }
}

// An account call's body is a few fields; better-auth would read any size, before anyone is known.
const MAX_AUTH_BODY_BYTES = 64 * 1024;

/**
 * The request with its body read, within MAX_AUTH_BODY_BYTES, and its request id in `X-Request-ID` (where
 * better-auth's hooks read it for the audit rows they write), with the body's JSON value; null when the body is larger.
 */
async function bounded(req: Request, requestId: string): Promise<{ req: Request; body: unknown } | null> {
  if (req.method !== "POST") return { req, body: undefined };
  try {
    const bytes = await readBytes(req, MAX_AUTH_BODY_BYTES);
    const headers = new Headers(req.headers);
    headers.set("x-request-id", requestId);
    // No body stays no body: better-auth reads an empty one as JSON that does not parse.
    const copy = new Request(req.url, {
      method: req.method,
      headers,
      body: bytes.byteLength > 0 ? Buffer.from(bytes) : null,
      signal: req.signal,
    });
    return { req: copy, body: parsed(req, bytes) };
  } catch (err) {
    if (err instanceof ApiError && err.code === "payload_too_large") return null;
    throw err;
  }
}

/**
 * better-auth's endpoints under /api/auth (sign-up, sign-in, sign-out, sessions, password), behind our limits. Each
 * answer carries its request's id, as /v1's do (docs/api.md, "Conventions"), the one its audit rows name.
 */
export async function authEndpoint(incoming: Request): Promise<Response> {
  const requestId = requestIdFrom(incoming);
  const response = await answer(incoming, requestId);
  response.headers.set("X-Request-ID", requestId);
  return response;
}

async function answer(incoming: Request, requestId: string): Promise<Response> {
  const read = await bounded(incoming, requestId);
  if (!read)
    return refusal(413, "PAYLOAD_TOO_LARGE", `The request body is larger than ${MAX_AUTH_BODY_BYTES / 1024} KiB.`);
  const { req, body } = read;
  const route = routeOf(new URL(req.url).pathname);
  if (req.method === "POST" && LIMITED.has(route)) {
    if (!isJson(req)) return refusal(415, "UNSUPPORTED_MEDIA_TYPE", "Send the body as application/json.");
    const perMinute = env().SIGN_IN_RATE_LIMIT_PER_MINUTE;
    const byAddr = await byAddress.admit(clientAddress(req), perMinute);
    if (!byAddr.allowed) return tooMany(byAddr.retryAfterSeconds);
    const account = route.endsWith("/sign-up/email") ? null : accountOf(req, body, route);
    if (account) {
      const decision = await byAccount.admit(account, env().SIGN_IN_RATE_LIMIT_PER_EMAIL_HOUR, 3_600_000);
      if (!decision.allowed) {
        log().warn({ msg: "password attempts limited for an account" });
        return tooMany(decision.retryAfterSeconds);
      }
    }
  }
  // better-auth stores a name as sent: a NUL Postgres cannot hold, or a body nested deeper than its stack, was a 500.
  const problem = body === undefined ? null : bodyProblem(body);
  if (problem) return problem;
  // While the database is known to be away, better-auth is not asked: it would fail, and log the failed query with
  // its parameters (an email address).
  if (isDatabaseDown()) return databaseDown();
  const signingIn = req.method === "POST" && route === SIGN_IN ? emailOf(body) : null;
  let db: Db;
  let answered: Response;
  try {
    db = await getDb();
    answered = await authFor(db).handler(req);
  } catch (err) {
    // The database could not be opened (down since the start).
    if (!isDatabaseUnavailable(err)) throw err;
    return databaseDown();
  }
  // better-auth answers a failed query with a bare 500; while the database is away that is an outage (503, as the
  // API answers it), not a fault of ours.
  if (answered.status === 500 && isDatabaseDown()) return databaseDown();
  const response = await withoutTokens(answered);
  response.headers.set("Cache-Control", "no-store");
  if (signingIn) await auditSignIn(db, signingIn, req, response, requestId);
  return response;
}

/** Drops every `token` string from an answer's JSON, at any depth (`session.token`, each listed session's). */
function dropTokens(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropTokens);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key, v]) => !(key === "token" && typeof v === "string"))
      .map(([key, v]) => [key, dropTokens(v)]),
  );
}

/**
 * better-auth answers the raw session token in sign-in, sign-up, get-session, list-sessions and change-password.
 * Our pages need none of them (the HttpOnly cookie carries the session), and a token in a JSON body is one script
 * injection away from being sent elsewhere: it is taken out. The cookie is left as it is.
 */
async function withoutTokens(response: Response): Promise<Response> {
  if (!response.headers.get("content-type")?.includes("application/json")) return response;
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return new Response(text, response);
  }
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify(dropTokens(body)), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

/**
 * The attempt in the audit log, when a password was checked: a success, or better-auth's 401 for a wrong email or
 * password. A sign-in refused before that (another site's Origin or callbackURL, an email that is not one) guessed
 * nothing and is not a failed sign-in of anyone's. A failure to write the row is logged and never changes the answer.
 */
async function auditSignIn(db: Db, email: string, req: Request, response: Response, requestId: string) {
  if (!response.ok && response.status !== 401) return;
  const origin = requestOrigin(req.headers);
  await recordSignIn({ db, email, succeeded: response.ok, origin, requestId }).catch((err: unknown) =>
    log().error({ msg: "could not record a sign-in in the audit log", err }),
  );
}

function databaseDown(): Response {
  return refusal(503, "UNAVAILABLE", "The service is temporarily unavailable. Try again shortly.", {
    "Retry-After": "5",
  });
}

/** Shares the sign-in buckets with the other instances (lib/start-server.ts, on Postgres). */
export function shareSignInLimits(): void {
  byAddress.share(postgresSettle("sign-in-address"));
  byAccount.share(postgresSettle("sign-in-account"));
}

/** Tests start each case with full buckets. */
export function resetSignInLimits(): void {
  byAddress.reset();
  byAccount.reset();
}
