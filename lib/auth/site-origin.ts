import "server-only";
import { env } from "@/lib/env";

/** The first entry of a header a chain of proxies may have written to (`a, b`), trimmed; undefined when empty. */
const firstOf = (value: string | null) => value?.split(",")[0]?.trim() || undefined;

/**
 * A host and an optional port: a name or IPv4 address (letters, digits, dots, hyphens) or an IPv6 one in brackets.
 * Anything else would make some other origin: credentials, a path or a query; or `*`, which better-auth reads as a
 * wildcard trusting every origin.
 */
const HOST = /^(?:[a-z\d.-]+|\[[\da-f:.]+\])(?::\d+)?$/i;

/**
 * The origin (scheme, host and port) a request was sent to: the scheme and host of its URL, the Host header's host,
 * or, behind TRUST_PROXY proxies only, what they forwarded (X-Forwarded-Proto, X-Forwarded-Host). Null when what
 * was sent does not make an origin.
 */
function requestOrigin(req: Request): string | null {
  const url = new URL(req.url);
  const proxied = env().TRUST_PROXY > 0;
  const proto = (proxied && firstOf(req.headers.get("x-forwarded-proto"))) || url.protocol.replace(/:$/, "");
  const host = (proxied && firstOf(req.headers.get("x-forwarded-host"))) || req.headers.get("host") || url.host;
  if ((proto !== "http" && proto !== "https") || !HOST.test(host)) return null;
  try {
    return new URL(`${proto}://${host}`).origin;
  } catch {
    return null;
  }
}

/**
 * This site's origins, the only ones trusted to act with a session cookie or to be sent to after a better-auth
 * callback: PUBLIC_URL's origin, and the origin the request itself was sent to. Scheme and port count: the same
 * host on another port, or over http when the site is https, is another site.
 */
export function siteOrigins(req: Request): string[] {
  const { PUBLIC_URL } = env();
  const own = requestOrigin(req);
  const origins = [PUBLIC_URL ? new URL(PUBLIC_URL).origin : null, own];
  return [...new Set(origins.filter((o): o is string => o !== null))];
}

/** Whether a request's `Origin` header names this site (siteOrigins); a missing, `null` or malformed one does not. */
export function fromThisSite(req: Request): boolean {
  const origin = req.headers.get("origin");
  if (!origin || origin === "null") return false;
  let asked: string;
  try {
    asked = new URL(origin).origin;
  } catch {
    return false;
  }
  return siteOrigins(req).includes(asked);
}
