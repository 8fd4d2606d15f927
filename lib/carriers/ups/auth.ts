import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { CarrierRequest, CarrierResponse } from "@/lib/carriers/http/client";
import { credentialsKey } from "@/lib/carriers/http/token-cache";
import { CarrierError, type AdapterContext } from "@/lib/carriers/types";
import { authFailed, errorFromResponse, jsonOrNull, upsErrors } from "@/lib/carriers/ups/errors";

/**
 * UPS OAuth client credentials (OAuthClientCredentials.yaml; docs/ups.md, "Credentials"):
 * `POST /security/v1/oauth/token` with the client id and secret as a Basic header and `grant_type=client_credentials`;
 * the answer's values are all strings (`"expires_in": "14399"`). The token is cached per credentials and environment
 * and reused until shortly before it expires (UPS throttles its token endpoint); a business call answered 401 drops
 * that token and is sent once more with a new one, and a second 401 is `carrier_auth_failed`.
 */

export const upsCredentialsSchema = z.strictObject({
  client_id: z.string().trim().min(1).max(200),
  // writeOnly in its JSON Schema (GET /v1/carriers): a form masks it.
  client_secret: z.string().min(1).max(500).meta({ writeOnly: true }),
  account_number: z
    .string()
    .trim()
    .transform((v) => v.toUpperCase())
    .pipe(z.string().regex(/^[A-Z0-9]{6}$/, "must be the 6-character UPS account (shipper) number")),
});
export type UpsCredentials = z.output<typeof upsCredentialsSchema>;

/** Who calls, as UPS's `transactionSrc` header names it. */
const TRANSACTION_SOURCE = "shipwell";

/** The connection's credentials (validated when the connection was saved; read defensively all the same). */
export function credentialsOf(ctx: AdapterContext): UpsCredentials {
  const parsed = upsCredentialsSchema.safeParse(ctx.connection.credentials);
  if (!parsed.success) {
    throw new CarrierError("carrier_auth_failed", "The UPS connection's credentials are incomplete or invalid.", {
      fields: [...new Set(parsed.error.issues.map((i) => i.path.join(".")))],
    });
  }
  return parsed.data;
}

// Test and production tokens are different tokens: the environment is part of the key.
const tokenKey = (ctx: AdapterContext, c: UpsCredentials) => credentialsKey("ups", { ...c, environment: ctx.baseUrl });

async function fetchToken(
  ctx: AdapterContext,
  c: UpsCredentials,
): Promise<{ token: string; expiresInSeconds: number }> {
  const res = await ctx.http.request({
    method: "POST",
    url: `${ctx.baseUrl}/security/v1/oauth/token`,
    headers: {
      Authorization: `Basic ${Buffer.from(`${c.client_id}:${c.client_secret}`).toString("base64")}`,
      "Content-Type": "application/x-www-form-urlencoded",
      Accept: "application/json",
      "x-merchant-id": c.account_number,
    },
    body: new URLSearchParams({ grant_type: "client_credentials" }),
    operation: "auth",
    // Asking for a token changes nothing at UPS, so a lost answer may be asked again.
    idempotent: true,
  });
  if (res.status === 400 || res.status === 401) throw authFailed(res.status, upsErrors(jsonOrNull(res)));
  // 403 is "Blocked Merchant" (OAuthClientCredentials.yaml): an account failure too, said in its own words.
  if (res.status !== 200) throw errorFromResponse(res);
  const body = res.json<{ access_token?: unknown; expires_in?: unknown }>();
  if (typeof body?.access_token !== "string" || body.access_token.length === 0) {
    throw new CarrierError("carrier_bad_response", "UPS answered the token request without a token.");
  }
  return { token: body.access_token, expiresInSeconds: Number(body.expires_in) };
}

/** A unique id for UPS's `transId` header (32 characters at most). */
function transactionId(): string {
  return randomUUID().replace(/-/g, "");
}

/**
 * Sends a business call with a bearer token: the cached one, or once more with a fresh one when UPS answers 401.
 * Answers every other response for the caller to read (errors included).
 */
export async function sendAuthorized(
  ctx: AdapterContext,
  build: () => Omit<CarrierRequest, "headers"> & { headers?: Record<string, string> },
): Promise<CarrierResponse> {
  const credentials = credentialsOf(ctx);
  const key = tokenKey(ctx, credentials);
  const attempt = async (token: string) => {
    const req = build();
    return ctx.http.request({
      ...req,
      headers: {
        Accept: "application/json",
        ...req.headers,
        Authorization: `Bearer ${token}`,
        transId: transactionId(),
        transactionSrc: TRANSACTION_SOURCE,
      },
    });
  };
  const token = await ctx.tokens.get(key, () => fetchToken(ctx, credentials));
  const first = await attempt(token);
  if (first.status !== 401) return first;
  // A 401 means UPS did not act on the call, so even a purchase may be sent again.
  ctx.tokens.invalidate(key, token);
  const fresh = await ctx.tokens.get(key, () => fetchToken(ctx, credentials));
  const second = await attempt(fresh);
  if (second.status === 401) throw authFailed(401, upsErrors(jsonOrNull(second)));
  return second;
}
