import "server-only";
import type { RequestOrigin } from "@/lib/context";
import { env } from "@/lib/env";

// Here rather than in lib/api: better-auth's hooks (lib/auth/better-auth.ts) record account changes with the client
// they came from, and the domain never imports lib/api. The per-address limit's bucket (lib/api/client-address.ts)
// reads the same address.

/**
 * The address a request came from. The front door appends the TCP peer's address to X-Forwarded-For
 * (lib/front-door.ts), as each reverse proxy in front appends the address it saw: counted from the right, the entry
 * TRUST_PROXY places in is the client's. Whatever a client wrote there itself sits further left and is never read.
 */
export function clientIp(headers: Headers): string | null {
  const entries = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const client = entries[Math.max(0, entries.length - 1 - env().TRUST_PROXY)];
  // An address is at most 45 characters (IPv6 with IPv4 inside); a longer "entry" must not grow the bucket map's keys.
  return client ? client.slice(0, 64) : null;
}

/** Where a request came from, for the audit log: the client's whole address and its user agent (first 256 chars). */
export function requestOrigin(headers: Headers): RequestOrigin {
  return { address: clientIp(headers), userAgent: headers.get("user-agent")?.slice(0, 256) || null };
}
