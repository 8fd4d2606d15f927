import { gunzipSync } from "node:zlib";
import { credentialsKey, type FetchedToken } from "@/lib/carriers/http/token-cache";
import type { CarrierResponse, HttpMethod } from "@/lib/carriers/http/client";
import type { AdapterContext } from "@/lib/carriers/types";
import { fedexCredentialsSchema, type FedexCredentials } from "@/lib/carriers/fedex/config";
import { authFailed, badResponse, fedexProblems, refusal } from "@/lib/carriers/fedex/errors";

/**
 * How the adapter talks to FedEx: OAuth client credentials in a form body (`POST /oauth/token`, tokens live 60
 * minutes and are shared through ctx.tokens), JSON calls with the bearer token, one retry with a fresh token when a
 * call answers 401, and gzip bodies decoded when fetch left them compressed.
 */

/** Which FedEx project a call is made with: tracking may have its own key pair. */
type KeyPair = "main" | "track";

export interface FedexAnswer {
  status: number;
  /** The body as JSON; null when it is not JSON. */
  body: unknown;
}

export function fedexCredentials(ctx: AdapterContext): FedexCredentials {
  const parsed = fedexCredentialsSchema.safeParse(ctx.connection.credentials);
  // Validated when the connection was saved; reaching this means they were changed behind the API's back.
  if (!parsed.success) throw authFailed("the connection's FedEx credentials are incomplete", 0);
  return parsed.data;
}

function keyPair(credentials: FedexCredentials, pair: KeyPair): { clientId: string; clientSecret: string } {
  if (pair === "track" && credentials.track_api_key && credentials.track_secret_key) {
    return { clientId: credentials.track_api_key, clientSecret: credentials.track_secret_key };
  }
  return { clientId: credentials.api_key, clientSecret: credentials.secret_key };
}

const GZIP_MAGIC = [0x1f, 0x8b];

/**
 * The body's text. FedEx may answer gzip; fetch decodes a body whose content-encoding says so, but a body that is
 * still compressed (a proxy that strips or mislabels the header) starts with gzip's magic bytes, which JSON never
 * does, so those decide.
 */
function bodyText(res: Pick<CarrierResponse, "body">): string {
  const bytes = res.body;
  const gzipped = bytes.length > 2 && bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1];
  if (!gzipped) return new TextDecoder().decode(bytes);
  try {
    return new TextDecoder().decode(gunzipSync(bytes));
  } catch {
    throw badResponse("a compressed body that could not be decompressed");
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function tokenKey(ctx: AdapterContext, clientId: string, clientSecret: string): string {
  // The environment is part of the key: the same key pair is a different client at FedEx's sandbox and production.
  return credentialsKey("fedex", { client_id: clientId, client_secret: clientSecret, environment: ctx.baseUrl });
}

async function fetchToken(ctx: AdapterContext, clientId: string, clientSecret: string): Promise<FetchedToken> {
  const res = await ctx.http.request({
    method: "POST",
    url: `${ctx.baseUrl}/oauth/token`,
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret }),
    operation: "auth",
    idempotent: true,
  });
  const body = parseJson(bodyText(res));
  if (res.status === 400 || res.status === 401 || res.status === 403) {
    throw authFailed(fedexProblems(body)[0]?.message ?? null, res.status);
  }
  if (res.status < 200 || res.status >= 300) throw refusal(res.status, body);
  const token = (body as { access_token?: unknown } | null)?.access_token;
  if (typeof token !== "string" || token === "") throw badResponse("a token answer without an access token");
  const expiresIn = Number((body as { expires_in?: unknown }).expires_in);
  return { token, expiresInSeconds: Number.isFinite(expiresIn) ? expiresIn : 0 };
}

export interface FedexCall {
  operation: "rate" | "ship" | "void" | "track" | "address_validation";
  method: HttpMethod;
  path: string;
  body: unknown;
  /** Rating, tracking, cancelling and resolving addresses are safe to repeat; a ship call is not (it could buy twice). */
  idempotent: boolean;
  keys?: KeyPair;
}

/**
 * One FedEx API call. Answers every 2xx and 4xx for the operation to read (a cancel reads FedEx's refusal to tell an
 * already-cancelled shipment apart); throws carrier_auth_failed when FedEx still answers 401 with a fresh token,
 * carrier_unavailable on a 5xx, and whatever the HTTP client throws (timeout, 429, network).
 */
export async function fedexCall(ctx: AdapterContext, call: FedexCall): Promise<FedexAnswer> {
  const { clientId, clientSecret } = keyPair(fedexCredentials(ctx), call.keys ?? "main");
  const key = tokenKey(ctx, clientId, clientSecret);
  const send = async (token: string) =>
    ctx.http.request({
      method: call.method,
      url: `${ctx.baseUrl}${call.path}`,
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        accept: "application/json",
        "accept-encoding": "gzip",
        "x-locale": "en_US",
      },
      body: JSON.stringify(call.body),
      operation: call.operation,
      idempotent: call.idempotent,
    });

  const first = await ctx.tokens.get(key, () => fetchToken(ctx, clientId, clientSecret));
  let res = await send(first);
  if (res.status === 401) {
    // An expired or revoked token: forget this one (not a newer one another call already fetched), retry once.
    ctx.tokens.invalidate(key, first);
    const fresh = await ctx.tokens.get(key, () => fetchToken(ctx, clientId, clientSecret));
    res = await send(fresh);
  }
  const body = parseJson(bodyText(res));
  if (res.status === 401 || res.status === 403 || res.status >= 500) throw refusal(res.status, body);
  return { status: res.status, body };
}

/** The `output` of a successful answer; any refusal (4xx) becomes a CarrierError, a non-JSON 2xx a bad response. */
export function outputOf(answer: FedexAnswer): Record<string, unknown> {
  if (answer.status >= 300) throw refusal(answer.status, answer.body);
  const output = (answer.body as { output?: unknown } | null)?.output;
  if (typeof output !== "object" || output === null || Array.isArray(output)) {
    // A 2xx carrying only errors[] is still a refusal.
    if (fedexProblems(answer.body).length > 0) throw refusal(answer.status, answer.body);
    throw badResponse("no output in the answer", { status: answer.status });
  }
  return output as Record<string, unknown>;
}
