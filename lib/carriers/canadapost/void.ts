import type { CarrierResponse } from "@/lib/carriers/http/client";
import {
  CarrierError,
  carrierCode,
  type AdapterMessage,
  type AdapterResult,
  type VoidResult,
} from "@/lib/carriers/types";
import { badResponse, errorFromResponse } from "./errors";
import type { RefundRequest } from "./requests";
import { buildXml, NAMESPACE, node, parseXml, text } from "./xml";

/**
 * Cancelling a Canada Post label (docs/canadapost.md, "Void and refunds"), decided by the shipment's details, as
 * karrio does:
 *
 * - details answer 404: the shipment is gone, voided before (a cancellation whose first answer was lost): voided;
 * - `refund-request-info` in the details: a refund was asked for before: that refund, still pending;
 * - a contract shipment not yet `transmitted`: `DELETE` the shipment (a void; nothing was billed, refund null);
 * - a transmitted contract shipment, or any non-contract one (Canada Post voids those by refund only): the refund
 *   request, answered with a service ticket: `{status: "pending", reference: service-ticket-id}`.
 *
 * Canada Post publishes no way to read a ticket's outcome (the details repeat only its id and date), so the adapter
 * does not declare `refund_status`: the refund stays pending here and Canada Post settles it by e-mail.
 */

/** What the details say: gone, already refunded, or the shipment's status. */
export type ShipmentState =
  { kind: "gone" } | { kind: "refund_requested"; ticket: string } | { kind: "live"; status: string | null };

export function readDetails(res: CarrierResponse): ShipmentState {
  if (res.status === 404) return { kind: "gone" };
  if (res.status !== 200) throw errorFromResponse(res);
  const tree = parseXml(res.text());
  const details = node(tree["shipment-details"]) ?? node(tree["non-contract-shipment-details"]);
  if (!details) throw badResponse("the shipment's details");
  const refund = node(details["refund-request-info"] ?? node(details["shipment-detail"])?.["refund-request-info"]);
  const ticket = text(refund?.["service-ticket-id"]);
  if (ticket) return { kind: "refund_requested", ticket };
  return { kind: "live", status: text(details["shipment-status"]) };
}

export const alreadyVoided = (id: string): AdapterResult<VoidResult> => ({
  data: { voided: true, refund: null },
  messages: [
    {
      code: carrierCode("CANADAPOST_ALREADY_VOIDED"),
      level: "info",
      message: `Canada Post has no shipment ${id} any more: it was voided before.`,
    },
  ],
});

export function refundRequestBody(contract: boolean, email: string | null): string {
  if (!email) {
    throw new CarrierError(
      carrierCode("CANADAPOST_FIELD_REQUIRED"),
      "Canada Post voids this label by a refund request, which needs an e-mail address: set the connection's config.refund_email.",
      { field: "config.refund_email" },
    );
  }
  const request: RefundRequest = { email };
  return contract
    ? buildXml("shipment-refund-request", NAMESPACE.shipment, request)
    : buildXml("non-contract-shipment-refund-request", NAMESPACE.ncshipment, request);
}

export function parseRefund(res: CarrierResponse, messages: AdapterMessage[] = []): AdapterResult<VoidResult> {
  if (res.status !== 200 && res.status !== 201) throw errorFromResponse(res);
  const tree = parseXml(res.text());
  const info = node(tree["shipment-refund-request-info"]) ?? node(tree["non-contract-shipment-refund-request-info"]);
  const ticket = text(info?.["service-ticket-id"]);
  if (!ticket) throw badResponse("a service ticket for the refund");
  return { data: { voided: true, refund: { status: "pending", reference: ticket } }, messages };
}
