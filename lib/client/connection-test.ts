import type { CarrierErrorCode } from "@/lib/carriers/types";
import type { Message } from "@/lib/schemas/message";

/**
 * What Test connection's quote says about a connection. A clerk who sees "it failed" cannot tell whether to fix the
 * credentials or to wait for the carrier; the codes can: an adapter answers `carrier_auth_failed` only when the
 * carrier refused the credentials or the account (UPS 401/403 Blocked Merchant, FedEx 401/403), and the wire's
 * failures (`carrier_unavailable`, `carrier_timeout`, `carrier_rate_limited`) before the credentials were judged.
 */
type ConnectionTestVerdict =
  | { kind: "ok"; text: string }
  | { kind: "credentials"; text: string }
  | { kind: "unreachable"; text: string }
  | { kind: "refused"; text: string };

// Typed against our codes, so a renamed code fails to compile here.
const CREDENTIALS: ReadonlySet<CarrierErrorCode> = new Set<CarrierErrorCode>(["carrier_auth_failed"]);
const UNREACHABLE: ReadonlySet<CarrierErrorCode> = new Set<CarrierErrorCode>([
  "carrier_unavailable",
  "carrier_timeout",
  "carrier_rate_limited",
]);

const has = (messages: readonly Message[], codes: ReadonlySet<CarrierErrorCode>) =>
  messages.some((m) => m.level === "error" && (codes as ReadonlySet<string>).has(m.code));

export function connectionTestVerdict(answer: {
  rates: readonly unknown[];
  messages: readonly Message[];
}): ConnectionTestVerdict {
  const { rates, messages } = answer;
  if (has(messages, CREDENTIALS)) {
    return {
      kind: "credentials",
      text: "The carrier refused the credentials or the account: check them, or ask the carrier to enable the account for its API.",
    };
  }
  if (rates.length > 0) return { kind: "ok", text: "The carrier accepted the credentials." };
  if (has(messages, UNREACHABLE)) {
    return {
      kind: "unreachable",
      text: "The carrier could not be reached or is not answering now; the credentials were not checked. Try again later.",
    };
  }
  return { kind: "refused", text: "The carrier answered but gave no quote for the test parcel; its messages say why." };
}
