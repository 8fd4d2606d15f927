import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import type { AdapterContext } from "@/lib/carriers/types";
import { authExpired } from "@/lib/carriers/sandbox/errors";

/**
 * The sandbox needs no credentials, but it authenticates like an OAuth carrier so the token cache is exercised:
 * each call asks `ctx.tokens` for a token keyed by the credentials, and only a cache miss "calls" the token
 * endpoint, which issues a random token valid for an hour.
 *
 * `api_key: "expired_key"` simulates credentials the carrier no longer accepts: the token endpoint refuses and
 * every call fails with `carrier_auth_failed` (nothing is cached, so fixing the key takes effect at once).
 */

const EXPIRED_API_KEY = "expired_key";
const SANDBOX_TOKEN_LIFETIME_SECONDS = 3600;

export const sandboxCredentialsSchema = z.strictObject({
  api_key: z.string().min(8).max(200).meta({ writeOnly: true }).optional(),
});

/** `sandbox:<sha256 prefix of the api key>`, or `sandbox:anonymous`; the key itself never becomes a map key. */
function sandboxTokenKey(credentials: Record<string, unknown>): string {
  const apiKey = credentials.api_key;
  if (typeof apiKey !== "string" || apiKey.length === 0) return "sandbox:anonymous";
  return `sandbox:${createHash("sha256").update(apiKey).digest("hex").slice(0, 32)}`;
}

/** Resolves to the access token for this connection's credentials. */
export function authenticate(
  ctx: AdapterContext,
  issueToken: () => string = () => `sbx_${randomBytes(16).toString("hex")}`,
): Promise<string> {
  return ctx.tokens.get(sandboxTokenKey(ctx.connection.credentials), async () => {
    if (ctx.connection.credentials.api_key === EXPIRED_API_KEY) throw authExpired();
    return { token: issueToken(), expiresInSeconds: SANDBOX_TOKEN_LIFETIME_SECONDS };
  });
}
