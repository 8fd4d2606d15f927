import { z } from "zod";
import type { CarrierRequest, CarrierResponse } from "@/lib/carriers/http/client";
import { credentialsKey } from "@/lib/carriers/http/token-cache";
import { CarrierError, type AdapterContext } from "@/lib/carriers/types";
import type { components as Payments } from "@/lib/carriers/usps/generated/payments";
import { authFailed, errorFromResponse, jsonOrNull, uspsErrors } from "@/lib/carriers/usps/errors";

/**
 * USPS's two tokens (docs/usps.md, "Credentials"). Every v3 call carries an OAuth 2 access token (client credentials,
 * `POST /oauth2/v3/token`, for which USPS publishes no OpenAPI file); labels and their cancellation carry a second one,
 * the payment authorization token (payments.yaml `POST /payments/v3/payment-authorization`), which names the account
 * that pays and the parties by role. Both are cached per credentials and environment with their lifetimes: the access
 * token's `expires_in`, the payment token's eight hours (payments.yaml: "valid for eight hours after issuance. The
 * Payments API should not be called for every label").
 *
 * A call answered 401 drops the tokens it carried and is sent once more with fresh ones; a second 401 is
 * `carrier_auth_failed`. A refused payment authorization names the payment account, not the OAuth client, so the
 * clerk knows which of the two to fix at USPS.
 */

const MID = z
  .string()
  .trim()
  .regex(/^(\d{6}|\d{9})$/, "must be a 6- or 9-digit Mailer ID");

export const uspsCredentialsSchema = z.strictObject({
  client_id: z.string().trim().min(1).max(200).meta({ title: "Consumer key (client ID)" }),
  // writeOnly in its JSON Schema (GET /v1/carriers): a form masks it.
  client_secret: z.string().min(1).max(500).meta({ writeOnly: true, title: "Consumer secret" }),
  /** Customer Registration ID of the Business Customer Gateway (payments.yaml `CRID`: 2 to 18 characters). */
  crid: z.string().trim().min(2).max(18).meta({ title: "CRID" }),
  /** Mailer ID of the label owner and payer (payments.yaml `MID`). */
  mid: MID.meta({ title: "MID" }),
  /** The MID that manifests (payments.yaml `manifestMID`); the MID when absent. */
  manifest_mid: MID.meta({ title: "Manifest MID" }).optional(),
  /** An Enterprise Payment System account or a permit (payments.yaml `PaymentAccount.accountType`). */
  account_type: z.enum(["EPS", "PERMIT"]).meta({ title: "Payment account type" }),
  account_number: z.string().trim().min(1).max(40).meta({ title: "Payment account number" }),
  /** A permit's post office ZIP Code (payments.yaml `permitZIP`), for PERMIT accounts. */
  permit_zip: z
    .string()
    .trim()
    .regex(/^\d{5}$/, "must be a 5-digit ZIP Code")
    .meta({ title: "Permit ZIP Code" })
    .optional(),
});
export type UspsCredentials = z.output<typeof uspsCredentialsSchema>;

/** The payment token's lifetime (payments.yaml); its answer carries none. */
const PAYMENT_TOKEN_TTL_S = 8 * 3600;

/** The connection's credentials (validated when the connection was saved; read defensively all the same). */
export function credentialsOf(ctx: AdapterContext): UspsCredentials {
  const parsed = uspsCredentialsSchema.safeParse(ctx.connection.credentials);
  if (!parsed.success) {
    throw new CarrierError("carrier_auth_failed", "The USPS connection's credentials are incomplete or invalid.", {
      fields: [...new Set(parsed.error.issues.map((i) => i.path.join(".")))],
    });
  }
  return parsed.data;
}

/** The payment account as messages name it (an account number, not personal data). */
const paymentAccountName = (c: UspsCredentials) => `the payment account ${c.account_type} ${c.account_number}`;

// Test and production tokens are different tokens: the environment is part of each key.
const accessKey = (ctx: AdapterContext, c: UspsCredentials) =>
  credentialsKey("usps", { client_id: c.client_id, client_secret: c.client_secret, environment: ctx.baseUrl });
const paymentKey = (ctx: AdapterContext, c: UspsCredentials) =>
  credentialsKey("usps-payment", { ...c, environment: ctx.baseUrl });

async function fetchAccessToken(ctx: AdapterContext, c: UspsCredentials) {
  const res = await ctx.http.request({
    method: "POST",
    url: `${ctx.baseUrl}/oauth2/v3/token`,
    headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: c.client_id,
      client_secret: c.client_secret,
    }),
    operation: "auth",
    // Asking for a token changes nothing at USPS, so a lost answer may be asked again.
    idempotent: true,
  });
  if (res.status === 400 || res.status === 401 || res.status === 403) {
    throw authFailed(res.status, uspsErrors(jsonOrNull(res)), "the OAuth client");
  }
  if (res.status !== 200) throw errorFromResponse(res, "the OAuth client");
  const body = res.json<{ access_token?: unknown; expires_in?: unknown }>();
  if (typeof body?.access_token !== "string" || body.access_token.length === 0) {
    throw new CarrierError("carrier_bad_response", "USPS answered the token request without a token.");
  }
  return { token: body.access_token, expiresInSeconds: Number(body.expires_in) };
}

type PaymentRequest = Payments["schemas"]["Parties"];

/** The roles a label needs: who pays, and who owns the label (the same account for a connection). */
function paymentRequest(c: UspsCredentials): PaymentRequest {
  const account = {
    CRID: c.crid,
    MID: c.mid,
    manifestMID: c.manifest_mid ?? c.mid,
    accountType: c.account_type,
    accountNumber: c.account_number,
    ...(c.account_type === "PERMIT" && c.permit_zip ? { permitZIP: c.permit_zip } : {}),
  };
  return {
    roles: [
      { roleName: "PAYER", ...account },
      { roleName: "LABEL_OWNER", ...account },
    ],
  };
}

async function fetchPaymentToken(ctx: AdapterContext, c: UspsCredentials) {
  const res = await sendWithAccess(ctx, c, () => ({
    method: "POST",
    url: `${ctx.baseUrl}/payments/v3/payment-authorization`,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(paymentRequest(c)),
    operation: "payment",
    idempotent: true,
  }));
  // A refusal here is about the payment account (CRID, MIDs, account, funds), whatever status USPS chose for it.
  if (res.status >= 400 && res.status < 500) {
    throw authFailed(res.status, uspsErrors(jsonOrNull(res)), paymentAccountName(c));
  }
  if (res.status !== 200) throw errorFromResponse(res, paymentAccountName(c));
  const body = res.json<{ paymentAuthorizationToken?: unknown }>();
  if (typeof body?.paymentAuthorizationToken !== "string" || !body.paymentAuthorizationToken) {
    throw new CarrierError("carrier_bad_response", "USPS answered the payment authorization without a token.");
  }
  return { token: body.paymentAuthorizationToken, expiresInSeconds: PAYMENT_TOKEN_TTL_S };
}

type Build = () => Omit<CarrierRequest, "headers"> & { headers?: Record<string, string> };

/** A call with the access token, sent once more with a fresh one when USPS answers 401. */
async function sendWithAccess(ctx: AdapterContext, c: UspsCredentials, build: Build): Promise<CarrierResponse> {
  const key = accessKey(ctx, c);
  const attempt = async (token: string) => {
    const req = build();
    return ctx.http.request({
      ...req,
      headers: { Accept: "application/json", ...req.headers, Authorization: `Bearer ${token}` },
    });
  };
  const token = await ctx.tokens.get(key, () => fetchAccessToken(ctx, c));
  const first = await attempt(token);
  if (first.status !== 401) return first;
  // A 401 means USPS did not act on the call, so even a purchase may be sent again.
  ctx.tokens.invalidate(key, token);
  const fresh = await ctx.tokens.get(key, () => fetchAccessToken(ctx, c));
  return attempt(fresh);
}

/**
 * Sends a business call with the access token and, for labels (`payment`), the payment authorization token.
 * Answers every response but a second 401 for the caller to read (errors included).
 */
export async function sendAuthorized(
  ctx: AdapterContext,
  build: Build,
  opts: { payment?: boolean } = {},
): Promise<CarrierResponse> {
  const c = credentialsOf(ctx);
  if (!opts.payment) {
    const res = await sendWithAccess(ctx, c, build);
    if (res.status === 401) throw authFailed(401, uspsErrors(jsonOrNull(res)), "the OAuth client");
    return res;
  }
  const key = paymentKey(ctx, c);
  const withPayment = (payment: string): Build => {
    return () => {
      const req = build();
      return { ...req, headers: { ...req.headers, "X-Payment-Authorization-Token": payment } };
    };
  };
  const payment = await ctx.tokens.get(key, () => fetchPaymentToken(ctx, c));
  const first = await sendWithAccess(ctx, c, withPayment(payment));
  if (first.status !== 401) return first;
  // The access token was fresh, so the payment token is the one refused: ask for a new one once.
  ctx.tokens.invalidate(key, payment);
  const fresh = await ctx.tokens.get(key, () => fetchPaymentToken(ctx, c));
  const second = await sendWithAccess(ctx, c, withPayment(fresh));
  if (second.status === 401) throw authFailed(401, uspsErrors(jsonOrNull(second)), paymentAccountName(c));
  return second;
}
