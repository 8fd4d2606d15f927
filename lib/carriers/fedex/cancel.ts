import type { components as Ship } from "@/lib/carriers/fedex/generated/ship";
import { carrierCode, CarrierError, type AdapterMessage, type VoidRequest } from "@/lib/carriers/types";
import type { FedexAnswer } from "@/lib/carriers/fedex/api";
import { alertMessages, badResponse, fedexProblems, FEDEX, refusal } from "@/lib/carriers/fedex/errors";
import { isRecord, records, str } from "@/lib/carriers/fedex/wire";

/**
 * Cancelling (`PUT /ship/v1/shipments/cancel`): the whole shipment, by its master tracking number. A shipment
 * FedEx reports as cancelled already is cancelled — the first answer of an earlier cancel was lost — so it is a
 * success with an info message, never a refusal (docs/carriers.md).
 */

export function buildCancelRequest(
  req: VoidRequest,
  accountNumber: string,
): Ship["schemas"]["Full_Schema_Cancel_Shipment"] {
  return {
    accountNumber: { value: accountNumber },
    trackingNumber: req.shipment_identifier ?? req.tracking_number,
    deletionControl: "DELETE_ALL_PACKAGES",
  };
}

/**
 * FedEx does not publish one code for "already cancelled": it says so in its words, as a refusal or as an alert
 * beside `cancelledShipment: false`. Any code or text saying the shipment is already cancelled or deleted counts.
 */
const ALREADY = /already[\s._-]*(?:been[\s._-]*)?(?:in[\s._-]*a[\s._-]*)?(?:cancel|delet)/i;

function alreadyCancelled(trackingNumber: string, said: { code: string; message: string }): AdapterMessage {
  return {
    code: carrierCode(said.code),
    level: "info",
    message: `Shipment ${trackingNumber} was already cancelled at ${FEDEX}: ${said.message}`,
    details: { tracking_number: trackingNumber },
  };
}

export function parseCancelAnswer(answer: FedexAnswer, req: VoidRequest): AdapterMessage[] {
  const trackingNumber = req.shipment_identifier ?? req.tracking_number;
  const problems = fedexProblems(answer.body);
  const output = isRecord((answer.body as { output?: unknown } | null)?.output)
    ? (answer.body as { output: Record<string, unknown> }).output
    : null;
  const alerts = records(output?.alerts).map((a) => ({ code: str(a.code) ?? "", message: str(a.message) ?? "" }));
  const said = [...problems, ...alerts].find((p) => ALREADY.test(p.code) || ALREADY.test(p.message));

  if (answer.status >= 300 || (problems.length > 0 && !output)) {
    if (said) return [alreadyCancelled(trackingNumber, said)];
    throw refusal(answer.status, answer.body);
  }
  if (!output) throw badResponse("no output in the cancel answer", { status: answer.status });
  if (output.cancelledShipment === true) return alertMessages(output.alerts);
  if (said) return [alreadyCancelled(trackingNumber, said)];
  const why = alerts[0] ?? { code: "FEDEX_NOT_CANCELLED", message: str(output.message) ?? "" };
  throw new CarrierError(
    carrierCode(why.code || "FEDEX_NOT_CANCELLED"),
    why.message || `${FEDEX} did not cancel shipment ${trackingNumber}.`,
    { tracking_number: trackingNumber },
  );
}
