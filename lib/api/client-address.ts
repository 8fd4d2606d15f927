import "server-only";
import { isIPv6 } from "node:net";
import type { RequestOrigin } from "@/lib/context";
import { env } from "@/lib/env";

/**
 * One IPv6 client usually holds a whole /64 and can send from any address in it: the bucket is the /64 (its first
 * four groups), as rate limiters commonly key IPv6. IPv4 and IPv4-mapped addresses stay whole.
 */
function bucketOf(address: string): string {
  if (!isIPv6(address) || address.includes(".")) return address;
  const [head = "", tail = ""] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = address.includes("::")
    ? [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.toLowerCase().replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/**
 * The address a request came from. The front door appends the TCP peer's address to X-Forwarded-For
 * (lib/front-door.ts), as each reverse proxy in front appends the address it saw: counted from the right, the entry
 * TRUST_PROXY places in is the client's. Whatever a client wrote there itself sits further left and is never read.
 */
function clientIp(headers: Headers): string | null {
  const entries = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const client = entries[Math.max(0, entries.length - 1 - env().TRUST_PROXY)];
  // An address is at most 45 characters (IPv6 with IPv4 inside); a longer "entry" must not grow the bucket map's keys.
  return client ? client.slice(0, 64) : null;
}

/** The bucket of the per-address limit (lib/api/authenticate.ts). Without the header, requests share one bucket. */
export function clientAddress(req: Request): string {
  const ip = clientIp(req.headers);
  return ip ? bucketOf(ip) : "unknown";
}

/** Where a request came from, for the audit log: the client's whole address and its user agent (first 256 chars). */
export function requestOrigin(headers: Headers): RequestOrigin {
  return { address: clientIp(headers), userAgent: headers.get("user-agent")?.slice(0, 256) || null };
}
