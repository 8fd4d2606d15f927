import "server-only";
import { env } from "@/lib/env";
import { ValidationError } from "@/lib/errors";
import { isIpLiteral, isPublicAddress } from "./safe-fetch";

/**
 * The operator's rules for an endpoint URL, checked when it is created or changed (docs/api.md, "Webhooks and
 * events"); the schema has already made it an absolute http(s) URL without credentials. The sender checks the
 * address again when it connects: a host name is only resolved then, so here only what the URL itself says can be
 * refused (an address literal, `localhost`). Refusing early tells the client at once instead of at the first event.
 */
export function assertEndpointUrlAllowed(href: string, testMode: boolean): void {
  const url = new URL(href);
  const settings = env();
  if (url.protocol === "http:" && !testMode && !settings.WEBHOOKS_ALLOW_HTTP) {
    throw new ValidationError("must use https for a live endpoint (plain http is allowed in test mode only)", "url");
  }
  if (!settings.WEBHOOKS_ALLOW_PRIVATE_URLS && isPrivateHost(url.hostname)) {
    throw new ValidationError(
      "must not point at a private, loopback, link-local or metadata address (events go to public addresses only)",
      "url",
    );
  }
}

/**
 * An address literal outside public unicast space (private, loopback, link-local such as 169.254.169.254,
 * carrier-grade NAT, unique-local, unspecified, reserved, and IPv6 forms that embed an IPv4 address), or a name that
 * is loopback by definition (`localhost`, `*.localhost`: RFC 6761).
 */
function isPrivateHost(hostname: string): boolean {
  const host = hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  // A name is judged when the sender resolves it; a literal by the sender's own rule, now.
  return isIpLiteral(host) && !isPublicAddress(host);
}
