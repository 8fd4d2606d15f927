import type { CarrierResponse } from "@/lib/carriers/http/client";
import { CarrierError, carrierCode, type AdapterMessage } from "@/lib/carriers/types";
import { excerpt } from "@/lib/validation";

/**
 * USPS's error answers (every v3 file's `ErrorMessage`; docs/usps.md, "Errors") as our messages:
 * `{"apiVersion", "error": {"code", "message", "errors": [{"status", "code", "title", "detail", "source"}]}}`. Each
 * `errors[]` item is one message with USPS's code and its `detail` (else `title`); without items, `error.code` and
 * `error.message`. The OAuth endpoint answers RFC 6749's `{"error", "error_description"}` instead.
 *
 * A 5xx is `carrier_unavailable` whatever it carries, 401 and 403 are `carrier_auth_failed` (USPS did not accept
 * the app or the account: for the connection to fix at USPS, not to wait out). The adapter's own codes, for what it
 * refuses before USPS sees the request, are `USPS_…`.
 */

interface UspsError {
  code: string;
  message: string;
  field: string | null;
}

const text = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v.trim() : null);

/** The errors of a USPS error body, in order; empty when the body is not one. */
export function uspsErrors(body: unknown): UspsError[] {
  if (!body || typeof body !== "object") return [];
  const b = body as { error?: unknown; error_description?: unknown };
  // RFC 6749 (the token endpoint): `error` is a string.
  if (typeof b.error === "string") {
    return [{ code: b.error, message: text(b.error_description) ?? b.error, field: null }];
  }
  const e = b.error as { code?: unknown; message?: unknown; errors?: unknown } | undefined;
  if (!e || typeof e !== "object") return [];
  const out: UspsError[] = [];
  for (const item of Array.isArray(e.errors) ? e.errors : []) {
    const i = item as { code?: unknown; title?: unknown; detail?: unknown; source?: { parameter?: unknown } };
    const message = text(i?.detail) ?? text(i?.title);
    const code = text(i?.code) ?? text(e.code);
    if (code || message) {
      out.push({ code: code ?? "error", message: message ?? `USPS error ${code}.`, field: text(i?.source?.parameter) });
    }
  }
  if (out.length === 0) {
    const code = text(e.code);
    const message = text(e.message);
    if (code || message) out.push({ code: code ?? "error", message: message ?? `USPS error ${code}.`, field: null });
  }
  return out;
}

/** A body read as JSON when it is JSON; null otherwise (a gateway's answer may be HTML). */
export function jsonOrNull(res: CarrierResponse): unknown {
  try {
    return JSON.parse(res.text());
  } catch {
    return null;
  }
}

function message(e: UspsError): AdapterMessage {
  return {
    code: carrierCode(e.code),
    message: excerpt(e.message, 500),
    level: "error",
    ...(e.field ? { details: { field: e.field } } : {}),
  };
}

/** `who`: what USPS refused, in words ("the OAuth client", "the payment account 1000012345"). */
export function authFailed(status: number, errors: UspsError[], who = "the credentials"): CarrierError {
  const first = errors[0];
  return new CarrierError(
    "carrier_auth_failed",
    `USPS refused ${who}${first ? `: ${excerpt(first.message, 300)}` : "."}`,
    { status, ...(first ? { carrier_code: first.code } : {}) },
  );
}

/** The CarrierError for a USPS answer that is not a success (a 429 never gets here: the HTTP client handles it). */
export function errorFromResponse(res: CarrierResponse, who?: string): CarrierError {
  const errors = uspsErrors(jsonOrNull(res));
  const status = res.status;
  const [first, ...rest] = errors;
  if (status >= 500) {
    return new CarrierError(
      "carrier_unavailable",
      first ? `USPS is unavailable: ${excerpt(first.message, 300)}` : "USPS is unavailable. Try again shortly.",
      { status, ...(first ? { carrier_code: first.code } : {}) },
    );
  }
  if (status === 401 || status === 403) return authFailed(status, errors, who);
  if (first) {
    return new CarrierError(
      carrierCode(first.code),
      excerpt(first.message, 500),
      { status, ...(first.field ? { field: first.field } : {}) },
      rest.map(message),
    );
  }
  return new CarrierError("carrier_bad_response", `USPS answered HTTP ${status} without an error it documents.`, {
    status,
  });
}

/** A USPS success whose body lacks what USPS documents for it. */
export function badResponse(what: string): CarrierError {
  return new CarrierError("carrier_bad_response", `USPS answered without ${what}.`);
}
