import type { CarrierResponse } from "@/lib/carriers/http/client";
import {
  CarrierError,
  carrierCode,
  type AdapterMessage,
  type AdapterResult,
  type VoidResult,
} from "@/lib/carriers/types";
import { asArray, badResponse, errorFromResponse, jsonOrNull, upsErrors } from "@/lib/carriers/ups/errors";
import { excerpt } from "@/lib/validation";

/**
 * Void (Shipping.yaml `DELETE /shipments/{version}/void/cancel/{shipmentidentificationnumber}`; docs/ups.md, "Void").
 * Success is `ResponseStatus.Code` "1". A shipment voided before (a cancellation whose first answer was lost) must
 * settle as voided (docs/carriers.md): UPS reports it as a package status "Already Voided" (its package status code 1
 * means "Voided or Already Voided") or refuses the void with an "already voided" error (code 190117, by UPS's void
 * error list; matched on the wording too). Either is a success with an info message.
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

interface PackageResult {
  trackingNumber: string;
  code: string;
  description: string;
}

function packageResults(response: { PackageLevelResults?: unknown; PackageLevelResult?: unknown }): PackageResult[] {
  return [...asArray(response.PackageLevelResults), ...asArray(response.PackageLevelResult)].map((p) => {
    const item = p as { TrackingNumber?: unknown; Status?: { Code?: unknown; Description?: unknown } };
    return {
      trackingNumber: str(item?.TrackingNumber),
      code: str(item?.Status?.Code),
      description: str(item?.Status?.Description),
    };
  });
}

/**
 * A 200 whose packages are not all voided. Shipping.yaml's `PackageLevelResults[].Status.Code` is "1 = Voided or
 * Already Voided; 0 = Not Voided": the packages decide, not `ResponseStatus` (which says the call worked) nor the
 * summary. A partial void leaves a live label the account pays for, so it is a refusal that names both lists; a
 * second cancellation voids the rest (UPS answers the voided ones as already voided).
 */
function notVoided(shipmentId: string, packages: PackageResult[], summary: { code: string; description: string }) {
  const voided = packages.filter((p) => p.code === "1").map((p) => p.trackingNumber);
  const left = packages.filter((p) => p.code !== "1");
  const details = { shipment_identifier: shipmentId, voided, not_voided: left.map((p) => p.trackingNumber) };
  if (voided.length > 0) {
    const named = left.map((p) => `${p.trackingNumber} (${p.description || `status ${p.code || "missing"}`})`);
    return new CarrierError(
      carrierCode("UPS_PARTIALLY_VOIDED"),
      `UPS voided ${voided.length} of the ${packages.length} packages of shipment ${shipmentId}; not voided: ${named.join(", ")}. Cancel again to void the rest, or void it in the UPS account.`,
      details,
    );
  }
  const why = left.length
    ? left.map((p) => `package ${p.trackingNumber}: ${p.description || `status ${p.code || "missing"}`}`).join("; ")
    : summary.description || `status ${summary.code}`;
  return new CarrierError(
    carrierCode("UPS_NOT_VOIDED"),
    excerpt(`UPS did not void shipment ${shipmentId} (${why}).`, 500),
    details,
  );
}

export function parseVoidResponse(res: CarrierResponse, shipmentId: string): AdapterResult<VoidResult> {
  if (res.status !== 200) {
    const errors = upsErrors(jsonOrNull(res));
    const voided =
      res.status < 500 && errors.find((e) => ALREADY_VOIDED_CODES.has(e.code) || ALREADY_VOIDED_TEXT.test(e.message));
    if (voided)
      return {
        data: { voided: true, refund: null },
        messages: [alreadyVoided(shipmentId, voided.code, voided.message)],
      };
    throw errorFromResponse(res);
  }
  const response = res.json<{
    VoidShipmentResponse?: {
      Response?: { ResponseStatus?: { Code?: unknown } };
      SummaryResult?: { Status?: { Code?: unknown; Description?: unknown } };
      PackageLevelResult?: unknown;
      PackageLevelResults?: unknown;
    };
  }>()?.VoidShipmentResponse;
  if (!response || str(response.Response?.ResponseStatus?.Code) !== "1") throw badResponse("a successful void status");
  const summary = {
    code: str(response.SummaryResult?.Status?.Code),
    description: str(response.SummaryResult?.Status?.Description),
  };
  const packages = packageResults(response);
  // Without package results the summary is all UPS said; its code is "1" on a void (Shipping.yaml gives no list).
  if (packages.some((p) => p.code !== "1") || (packages.length === 0 && summary.code !== "1")) {
    throw notVoided(shipmentId, packages, summary);
  }
  const already = [summary.description, ...packages.map((p) => p.description)].find((d) => ALREADY_VOIDED_TEXT.test(d));
  return {
    data: { voided: true, refund: null },
    messages: already
      ? [alreadyVoided(shipmentId, "UPS_ALREADY_VOIDED", `UPS shipment ${shipmentId}: ${already}.`)]
      : [],
  };
}
