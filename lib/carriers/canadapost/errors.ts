import type { CarrierResponse } from "@/lib/carriers/http/client";
import { CarrierError, carrierCode, type AdapterMessage } from "@/lib/carriers/types";
import { excerpt } from "@/lib/validation";
import { list, node, parseXml, text } from "./xml";

/**
 * Canada Post's refusals (docs/canadapost.md, "Errors"): each `<message>` of
 * `<messages><message><code/><description/></message></messages>` is one of ours with Canada Post's code and words.
 * Codes that mean our side must act are ours: a 401/403 or E002 ("AAA Authentication Failure") is
 * `carrier_auth_failed`; "Rejected by SLM Monitor" (its throttle, answered with code `Server` whatever the status) is
 * `carrier_rate_limited`; any other 5xx `carrier_unavailable`. The adapter's own codes are `CANADAPOST_…` (Canada
 * Post's are short: E002, 004, 8512, Server).
 */

interface CpMessage {
  code: string;
  description: string;
}

/**
 * E002/E003 (authentication, authorization) and Canada Post's AA00x ("Messages and Code Tables": the key
 * deactivated, a development key on production, a key that does not match the mailed-by customer number, mailing on
 * behalf of a customer it may not, platform ids): the connection's to fix with Canada Post, never "unavailable".
 */
const AUTH_CODES = new Set(["E002", "E003", "AA001", "AA002", "AA003", "AA004", "AA005", "AA006"]);

/** The messages of an answer; empty when it is not a `<messages>` document. */
export function cpMessages(res: CarrierResponse): CpMessage[] {
  let tree: Record<string, unknown>;
  try {
    tree = parseXml(res.text());
  } catch {
    return [];
  }
  const out: CpMessage[] = [];
  for (const m of list(node(tree.messages)?.message)) {
    const code = text(node(m)?.code);
    if (code) out.push({ code, description: text(node(m)?.description) ?? `Canada Post error ${code}.` });
  }
  return out;
}

const message = (m: CpMessage): AdapterMessage => ({
  code: carrierCode(m.code),
  message: excerpt(m.description, 500),
  level: "error",
});

const throttled = (m: CpMessage) => /rejected by slm monitor/i.test(m.description);

/** The CarrierError for an answer that is not a success (a 429 never gets here: the HTTP client handles it). */
export function errorFromResponse(res: CarrierResponse): CarrierError {
  const messages = cpMessages(res);
  const status = res.status;
  const [first, ...rest] = messages;
  const details = (m?: CpMessage) => ({ status, ...(m ? { carrier_code: m.code } : {}) });
  if (messages.some(throttled)) {
    return new CarrierError(
      "carrier_rate_limited",
      "Canada Post is throttling this API key (Rejected by SLM Monitor); try again in a minute.",
      details(messages.find(throttled)),
    );
  }
  if (status === 401 || status === 403 || (first && AUTH_CODES.has(first.code))) {
    return new CarrierError(
      "carrier_auth_failed",
      first
        ? `Canada Post refused the credentials: ${excerpt(first.description, 300)}`
        : "Canada Post refused the credentials.",
      details(first),
    );
  }
  if (status >= 500) {
    return new CarrierError(
      "carrier_unavailable",
      first ? excerpt(first.description, 500) : "Canada Post is unavailable. Try again shortly.",
      details(first),
    );
  }
  if (first)
    return new CarrierError(carrierCode(first.code), excerpt(first.description, 500), { status }, rest.map(message));
  return new CarrierError(
    "carrier_bad_response",
    `Canada Post answered HTTP ${status} without an error it documents.`,
    {
      status,
    },
  );
}

/** A Canada Post success whose body lacks what its schema documents for it. */
export function badResponse(what: string): CarrierError {
  return new CarrierError("carrier_bad_response", `Canada Post answered without ${what}.`);
}
