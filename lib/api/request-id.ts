import { randomHex128 } from "@/lib/random";

const REQUEST_ID_PATTERN = /^[A-Za-z0-9_.-]{1,200}$/;

/** docs/api.md, "Conventions": the client's X-Request-ID when well-formed, else `req_` + 32 hex. */
export function requestIdFrom(req: Request): string {
  const given = req.headers.get("x-request-id");
  return given && REQUEST_ID_PATTERN.test(given) ? given : `req_${randomHex128()}`;
}
