import { CarrierError, carrierCode, type AdapterMessage } from "@/lib/carriers/types";

/**
 * FedEx's answers in our vocabulary. FedEx refuses with `{transactionId, errors: [{code, message}]}` (codes such as
 * `SHIPMENT.USER.UNAUTHORIZED`, `NOT.AUTHORIZED.ERROR`) and accompanies a success with `output.alerts[]`
 * (`alertType` NOTE or WARNING). Its codes pass through as carrier codes with its messages; the ways a call can
 * fail on the wire become ours.
 */

export const FEDEX = "FedEx";

interface FedexProblem {
  code: string;
  message: string;
  parameters: { key: string; value: string }[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v.trim() : null);

/** The `errors[]` of a FedEx answer, or of a per-number track result (`error`). */
export function fedexProblems(body: unknown): FedexProblem[] {
  if (!isObject(body)) return [];
  const list = Array.isArray(body.errors) ? body.errors : isObject(body.error) ? [body.error] : [];
  return list.filter(isObject).map((e) => ({
    code: text(e.code) ?? "UNKNOWN",
    message: text(e.message) ?? text(e.code) ?? "FedEx refused the request.",
    parameters: (Array.isArray(e.parameterList) ? e.parameterList : [])
      .filter(isObject)
      .map((p) => ({ key: String(p.key ?? ""), value: String(p.value ?? "") })),
  }));
}

const ALERT_LEVELS: ReadonlyMap<string, AdapterMessage["level"]> = new Map([
  ["NOTE", "info"],
  ["WARNING", "warning"],
]);

/**
 * Alerts as messages: NOTE → info, WARNING → warning (anything else FedEx may add is a warning, never dropped).
 * FedEx repeats alerts at several levels of one answer, so each code and text is reported once.
 */
export function alertMessages(...lists: unknown[]): AdapterMessage[] {
  const seen = new Set<string>();
  const out: AdapterMessage[] = [];
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const a of list) {
      if (!isObject(a)) continue;
      const code = text(a.code);
      const message = text(a.message) ?? code;
      if (!code || !message || seen.has(`${code}\n${message}`)) continue;
      seen.add(`${code}\n${message}`);
      const level = ALERT_LEVELS.get(String(a.alertType ?? "").toUpperCase()) ?? "warning";
      out.push({ code: carrierCode(code), message, level });
    }
  }
  return out;
}

const AUTH_CODES = new Set(["NOT.AUTHORIZED.ERROR", "FORBIDDEN.ERROR", "LOGIN.REAUTHENTICATE.ERROR"]);

export function authFailed(message: string | null, status: number): CarrierError {
  return new CarrierError(
    "carrier_auth_failed",
    `${FEDEX} refused the connection's credentials${message ? `: ${message}` : "."}`,
    { status },
  );
}

export function badResponse(why: string, details: Record<string, unknown> = {}): CarrierError {
  return new CarrierError("carrier_bad_response", `${FEDEX} sent an answer we could not read: ${why}.`, details);
}

/**
 * The refusal in a non-2xx answer: 401/403 and FedEx's authorization codes → carrier_auth_failed; 5xx →
 * carrier_unavailable with FedEx's own words; any other status with `errors[]` → FedEx's codes and messages (the
 * first is the refusal, the rest ride along); a status without an explanation → carrier_bad_response.
 */
export function refusal(status: number, body: unknown): CarrierError {
  const problems = fedexProblems(body);
  const first = problems[0];
  if (status === 401 || status === 403 || problems.some((p) => AUTH_CODES.has(p.code))) {
    return authFailed(first?.message ?? null, status);
  }
  if (status >= 500) {
    return new CarrierError(
      "carrier_unavailable",
      first
        ? `${FEDEX} is unavailable: ${first.message}`
        : `${FEDEX} is unavailable (HTTP ${status}). Try again shortly.`,
      { status, ...(first ? { carrier_code: first.code } : {}) },
    );
  }
  if (!first) return badResponse(`HTTP ${status} without an explanation`, { status });
  const details = (p: FedexProblem) => ({
    status,
    ...(p.parameters.length > 0 ? { parameters: p.parameters } : {}),
  });
  return new CarrierError(
    carrierCode(first.code),
    first.message,
    details(first),
    problems
      .slice(1)
      .map((p) => ({ code: carrierCode(p.code), message: p.message, level: "error", details: details(p) })),
  );
}
