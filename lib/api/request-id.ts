import { randomHex128 } from "@/lib/random";

const REQUEST_ID_PATTERN = /^[A-Za-z0-9_.-]{1,200}$/;

/** docs/api.md, "Conventions": the client's X-Request-ID when well-formed, else `req_` + 32 hex. */
export function requestIdFrom(req: Request): string {
  return requestIdOf(req.headers.get("x-request-id"));
}

/** The same, from the header's value (the front door reads Node.js's request, not a fetch Request). */
export function requestIdOf(given: string | null | undefined): string {
  return given && REQUEST_ID_PATTERN.test(given) ? given : `req_${randomHex128()}`;
}
