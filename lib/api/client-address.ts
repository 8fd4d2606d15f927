import "server-only";
import { env } from "@/lib/env";

/**
 * The address a request came from, for the per-address limit (lib/api/authenticate.ts). The front door appends the
 * TCP peer's address to X-Forwarded-For (lib/front-door.ts), as each reverse proxy in front appends the address it
 * saw: counted from the right, the entry TRUST_PROXY places in is the client's. Whatever a client wrote there itself
 * sits further left and is never read. Without the header (a server without the front door) every request shares
 * one bucket.
 */
export function clientAddress(req: Request): string {
  const entries = (req.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const client = entries[Math.max(0, entries.length - 1 - env().TRUST_PROXY)];
  // An address is at most 45 characters (IPv6 with IPv4 inside); a longer "entry" must not grow the bucket map's keys.
  return client ? client.slice(0, 64) : "unknown";
}
