import type { CarrierResponse } from "@/lib/carriers/http/client";
import { carrierCode, type AdapterMessage, type AdapterResult, type VoidResult } from "@/lib/carriers/types";
import { asArray, badResponse, errorFromResponse, jsonOrNull, upsErrors } from "@/lib/carriers/ups/errors";
import { excerpt } from "@/lib/validation";

/**
 * Void (Shipping.yaml `DELETE /shipments/{version}/void/cancel/{shipmentidentificationnumber}`; carriers.md §1.5).
 * Success is `ResponseStatus.Code` "1". A shipment voided before (a cancellation whose first answer was lost) must
 * settle as voided (docs/carriers.md): UPS reports it as a package status "Already Voided" (its package status code
 * 1 means "Voided or Already Voided") or refuses the void with an "already voided" error (code 190117, by UPS's
 * void error list; matched on the wording too). Either is a success with an info message.
 */

const ALREADY_VOIDED_CODES = new Set(["190117"]);
const ALREADY_VOIDED_TEXT = /already\s+(been\s+)?voided/i;

const str = (v: unknown): string => (typeof v === "string" ? v.trim() : "");

function alreadyVoided(shipmentId: string, code: string, message: string): AdapterMessage {
  return {
    code: carrierCode(code),
    level: "info",
    message: excerpt(message || `UPS shipment ${shipmentId} was already voided.`, 500),
    details: { shipment_identifier: shipmentId },
  };
}

export function parseVoidResponse(res: CarrierResponse, shipmentId: string): AdapterResult<VoidResult> {
  if (res.status !== 200) {
    const errors = upsErrors(jsonOrNull(res));
    const voided =
      res.status < 500 && errors.find((e) => ALREADY_VOIDED_CODES.has(e.code) || ALREADY_VOIDED_TEXT.test(e.message));
    if (voided) return { data: { voided: true }, messages: [alreadyVoided(shipmentId, voided.code, voided.message)] };
    throw errorFromResponse(res);
  }
  const response = res.json<{
    VoidShipmentResponse?: {
      Response?: { ResponseStatus?: { Code?: unknown } };
      SummaryResult?: { Status?: { Description?: unknown } };
      PackageLevelResult?: unknown;
      PackageLevelResults?: unknown;
    };
  }>()?.VoidShipmentResponse;
  if (str(response?.Response?.ResponseStatus?.Code) !== "1") throw badResponse("a successful void status");
  const statuses = [
    str(response?.SummaryResult?.Status?.Description),
    ...[...asArray(response?.PackageLevelResults), ...asArray(response?.PackageLevelResult)].map((p) =>
      str((p as { Status?: { Description?: unknown } })?.Status?.Description),
    ),
  ];
  const already = statuses.find((d) => ALREADY_VOIDED_TEXT.test(d));
  return {
    data: { voided: true },
    messages: already
      ? [alreadyVoided(shipmentId, "UPS_ALREADY_VOIDED", `UPS shipment ${shipmentId}: ${already}.`)]
      : [],
  };
}
