import { CarrierError, carrierCode, type AdapterMessage } from "@/lib/carriers/types";

/**
 * DHL Express's answers in our vocabulary. MyDHL refuses with problem+json (`application/problem+json`: `instance`,
 * `detail`, `title`, `message`, `status` as text, and for several problems `additionalDetails[]`). Its own codes
 * lead the texts ("7008: The requested Special Service Code … is not available", "999: Process failure occurred"):
 * each passes through as a carrier code with DHL's words; a text without one is coded by the HTTP status DHL wrote.
 */

export const DHL = "DHL Express";

interface DhlProblem {
  code: string;
  message: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v.trim() : null);

/** "7008: The requested …" → code 7008 and the words after it; a text without a leading code keeps `fallback`. */
function problemOf(raw: string, fallback: string): DhlProblem {
  const m = /^(\d{2,7})\s*:\s*(.+)$/s.exec(raw.trim());
  return m ? { code: m[1]!, message: m[2]!.trim() } : { code: fallback, message: raw.trim() };
}

/**
 * The problems of a problem+json body: each of `additionalDetails` when DHL lists several ("Multiple problems found,
 * see Additional Details" says nothing itself), else the `detail`, else the `title` or `message`.
 */
export function dhlProblems(body: unknown, status: number): DhlProblem[] {
  if (!isObject(body)) return [];
  const fallback = text(body.status) ?? String(status);
  const details = (Array.isArray(body.additionalDetails) ? body.additionalDetails : [])
    .map(text)
    .filter((d): d is string => d !== null);
  const detail = text(body.detail);
  if (details.length > 0 && (!detail || /see additional details/i.test(detail))) {
    return details.map((d) => problemOf(d, fallback));
  }
  const main = detail ?? text(body.message) ?? text(body.title);
  if (!main) return [];
  return [problemOf(main, fallback), ...details.map((d) => problemOf(d, fallback))];
}

export function authFailed(message: string | null, status: number): CarrierError {
  return new CarrierError(
    "carrier_auth_failed",
    `${DHL} refused the connection's credentials${message ? `: ${message}` : "."}`,
    { status },
  );
}

export function badResponse(why: string, details: Record<string, unknown> = {}): CarrierError {
  return new CarrierError("carrier_bad_response", `${DHL} sent an answer we could not read: ${why}.`, details);
}

/**
 * The refusal in a non-2xx answer: 401/403 → carrier_auth_failed (MyDHL answers a wrong username, password or an
 * account it does not let them use so); 5xx → carrier_unavailable with DHL's words; any other status with a
 * problem → DHL's codes and words (the first is the refusal, the rest ride along); no problem → carrier_bad_response.
 */
export function refusal(status: number, body: unknown): CarrierError {
  const problems = dhlProblems(body, status);
  const first = problems[0];
  if (status === 401 || status === 403) return authFailed(first?.message ?? null, status);
  if (status >= 500) {
    return new CarrierError(
      "carrier_unavailable",
      first ? `${DHL} is unavailable: ${first.message}` : `${DHL} is unavailable (HTTP ${status}). Try again shortly.`,
      { status, ...(first ? { carrier_code: first.code } : {}) },
    );
  }
  if (!first) return badResponse(`HTTP ${status} without an explanation`, { status });
  const instance = isObject(body) ? text(body.instance) : null;
  const details = { status, ...(instance ? { instance } : {}) };
  return new CarrierError(
    carrierCode(first.code),
    first.message,
    details,
    problems
      .slice(1)
      .map((p): AdapterMessage => ({ code: carrierCode(p.code), message: p.message, level: "error", details })),
  );
}

/** DHL's `warnings[]` of a success (plain texts) as warnings, coded like its refusals. */
export function warningMessages(list: unknown): AdapterMessage[] {
  if (!Array.isArray(list)) return [];
  return list
    .map(text)
    .filter((w): w is string => w !== null)
    .map((w) => {
      const p = problemOf(w, "DHL_WARNING");
      return { code: carrierCode(p.code), message: p.message, level: "warning" as const };
    });
}
