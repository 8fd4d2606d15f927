import type { HttpMethod } from "@/lib/carriers/http/client";
import type { AdapterContext } from "@/lib/carriers/types";
import { dhlCredentialsSchema, type DhlCredentials } from "@/lib/carriers/dhl_express/config";
import { authFailed, badResponse, refusal } from "@/lib/carriers/dhl_express/errors";

/**
 * How the adapter talks to MyDHL API: HTTP Basic on every call (no token to cache or refresh), JSON bodies, and a
 * `Message-Reference` per call (the spec's optional header, up to 36 characters) that DHL echoes in its logs, so a
 * call can be found at DHL without sending it anything personal.
 */

/** The `x-version` of the vendored spec (its `xVersionHeader` default): the interface this adapter speaks. */
const MYDHL_INTERFACE_VERSION = "3.1.0";

export interface DhlAnswer {
  status: number;
  /** The body as JSON; null when it is not JSON. */
  body: unknown;
}

export function dhlCredentials(ctx: AdapterContext): DhlCredentials {
  const parsed = dhlCredentialsSchema.safeParse(ctx.connection.credentials);
  // Validated when the connection was saved; reaching this means they were changed behind the API's back.
  if (!parsed.success) throw authFailed("the connection's DHL Express credentials are incomplete", 0);
  return parsed.data;
}

export interface DhlCall {
  operation: "rate" | "ship" | "track" | "address_validation";
  method: HttpMethod;
  /** Below the API base, with its query string: `/rates`, `/shipments/123/tracking?trackingView=…`. */
  path: string;
  body?: unknown;
  /** Rating and tracking are safe to repeat; a ship call is not (it could buy twice). */
  idempotent: boolean;
}

/**
 * One MyDHL call. Answers every 2xx and 4xx but 401/403 for the operation to read (tracking reads a 404 as not
 * found); throws carrier_auth_failed on 401/403, carrier_unavailable on a 5xx, and whatever the HTTP client throws
 * (timeout, 429, network).
 */
export async function dhlCall(ctx: AdapterContext, call: DhlCall): Promise<DhlAnswer> {
  const { username, password } = dhlCredentials(ctx);
  const res = await ctx.http.request({
    method: call.method,
    url: `${ctx.baseUrl}${call.path}`,
    headers: {
      authorization: `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`,
      accept: "application/json",
      "message-reference": crypto.randomUUID(),
      // Required by every operation of the spec: "Interface version - do not change this field value".
      "x-version": MYDHL_INTERFACE_VERSION,
      ...(call.body !== undefined ? { "content-type": "application/json" } : {}),
    },
    ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
    operation: call.operation,
    idempotent: call.idempotent,
  });
  let body: unknown = null;
  try {
    body = JSON.parse(new TextDecoder().decode(res.body)) as unknown;
  } catch {
    body = null;
  }
  if (res.status === 401 || res.status === 403 || res.status >= 500) throw refusal(res.status, body);
  return { status: res.status, body };
}

/** The body of a successful answer as an object; a refusal (4xx) becomes a CarrierError, a non-JSON 2xx a bad response. */
export function answerOf(answer: DhlAnswer): Record<string, unknown> {
  if (answer.status >= 300) throw refusal(answer.status, answer.body);
  const b = answer.body;
  if (typeof b !== "object" || b === null || Array.isArray(b)) {
    throw badResponse("a body that is not a JSON object", { status: answer.status });
  }
  return b as Record<string, unknown>;
}
