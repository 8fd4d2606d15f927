import type { CarrierResponse } from "@/lib/carriers/http/client";
import { CarrierError, carrierCode, type AdapterMessage } from "@/lib/carriers/types";
import { excerpt } from "@/lib/validation";

/**
 * UPS's error answers (docs/ups.md, "Errors") as our messages. Every UPS API answers a refusal as
 * `{"response": {"errors": [{"code", "message"}]}}`; older ones used `Fault.detail.Errors.ErrorDetail`. Codes pass
 * through as UPS wrote them, except those that mean our side must act: 250002/250003 (credentials UPS does not
 * accept) and a 403 (Blocked Merchant) are `carrier_auth_failed`, and a 5xx is `carrier_unavailable` whatever code
 * it carries.
 *
 * The adapter's own codes, for what it refuses or changes before UPS sees the request, are `UPS_…` (UPS's own are
 * numeric or like TW0001, so they cannot be mistaken for one).
 */

interface UpsError {
  code: string;
  message: string;
}

const AUTH_CODES = new Set(["250002", "250003"]);

const text = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v.trim() : null);

/** UPS's arrays are arrays from v2403 on, but a single item came as an object before: read both. */
export function asArray(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  return v === undefined || v === null ? [] : [v];
}

/** The errors of a UPS error body, in order; empty when the body is not one. */
export function upsErrors(body: unknown): UpsError[] {
  if (!body || typeof body !== "object") return [];
  const b = body as { response?: { errors?: unknown }; Fault?: { detail?: { Errors?: { ErrorDetail?: unknown } } } };
  const out: UpsError[] = [];
  for (const e of asArray(b.response?.errors)) {
    const item = e as { code?: unknown; message?: unknown };
    const code = text(item?.code);
    if (code) out.push({ code, message: text(item.message) ?? `UPS error ${code}.` });
  }
  for (const d of asArray(b.Fault?.detail?.Errors?.ErrorDetail)) {
    const primary = (d as { PrimaryErrorCode?: { Code?: unknown; Description?: unknown } })?.PrimaryErrorCode;
    const code = text(primary?.Code);
    if (code) out.push({ code, message: text(primary?.Description) ?? `UPS error ${code}.` });
  }
  return out;
}

/** A body read as JSON when it is JSON; null otherwise (an error answer may be HTML from a gateway). */
export function jsonOrNull(res: CarrierResponse): unknown {
  try {
    return JSON.parse(res.text());
  } catch {
    return null;
  }
}

function message(e: UpsError): AdapterMessage {
  return { code: carrierCode(e.code), message: excerpt(e.message, 500), level: "error" };
}

export function authFailed(status: number, errors: UpsError[] = []): CarrierError {
  const first = errors[0];
  return new CarrierError(
    "carrier_auth_failed",
    first ? `UPS refused the credentials: ${excerpt(first.message, 300)}` : "UPS refused the credentials.",
    { status, ...(first ? { carrier_code: first.code } : {}) },
  );
}

/**
 * Every UPS API documents 403 as "Blocked Merchant" (Rating.yaml, Shipping.yaml, Tracking.yaml,
 * OAuthClientCredentials.yaml: `responses.403.description`): UPS will not serve this account or app, whatever the
 * request. It is the connection's problem to fix with UPS, so it is an account failure with UPS's own words, never
 * "unavailable" (which says try again later).
 */
function blockedMerchant(first: UpsError | undefined): CarrierError {
  return new CarrierError(
    "carrier_auth_failed",
    `UPS refused this account (HTTP 403, Blocked Merchant)${first ? `: ${excerpt(first.message, 300)}` : "."} Ask UPS to unblock the account or the app; trying again will not help.`,
    { status: 403, ...(first ? { carrier_code: first.code } : {}) },
  );
}

/** The CarrierError for a UPS answer that is not a success (a 429 never gets here: the HTTP client handles it). */
export function errorFromResponse(res: CarrierResponse): CarrierError {
  const errors = upsErrors(jsonOrNull(res));
  const status = res.status;
  const [first, ...rest] = errors;
  if (status >= 500) {
    return new CarrierError(
      "carrier_unavailable",
      first ? excerpt(first.message, 500) : "UPS is unavailable. Try again shortly.",
      { status, ...(first ? { carrier_code: first.code } : {}) },
    );
  }
  if (status === 401 || (first && AUTH_CODES.has(first.code))) return authFailed(status, errors);
  if (status === 403) return blockedMerchant(first);
  if (first)
    return new CarrierError(carrierCode(first.code), excerpt(first.message, 500), { status }, rest.map(message));
  return new CarrierError("carrier_bad_response", `UPS answered HTTP ${status} without an error it documents.`, {
    status,
  });
}

/** `Response.Alert[]` (warnings that come with a success) as warning messages. */
export function alertMessages(alerts: unknown, details: Record<string, unknown> = {}): AdapterMessage[] {
  const out: AdapterMessage[] = [];
  for (const a of asArray(alerts)) {
    const alert = a as { Code?: unknown; Description?: unknown };
    const code = text(alert?.Code);
    const description = text(alert?.Description);
    if (!code && !description) continue;
    out.push({
      code: carrierCode(code ?? "alert"),
      message: excerpt(description ?? `UPS alert ${code}.`, 500),
      level: "warning",
      ...(Object.keys(details).length ? { details } : {}),
    });
  }
  return out;
}

/** A UPS success whose body lacks what UPS documents for it. */
export function badResponse(what: string): CarrierError {
  return new CarrierError("carrier_bad_response", `UPS answered without ${what}.`);
}
