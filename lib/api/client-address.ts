import "server-only";
import { isIPv6 } from "node:net";
import { clientIp } from "@/lib/audit/request-origin";

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

/** The bucket of the per-address limit (lib/api/authenticate.ts). Without the header, requests share one bucket. */
export function clientAddress(req: Request): string {
  const ip = clientIp(req.headers);
  return ip ? bucketOf(ip) : "unknown";
}
