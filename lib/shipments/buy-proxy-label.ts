import type { DomainContext } from "@/lib/context";
import { getAdapter } from "@/lib/carriers/registry";
import { connectionById } from "@/lib/connections/select-connections";
import { invokeConnection } from "@/lib/connections/invoke-connection";
import { CarrierFailureError, ValidationError } from "@/lib/errors";
import { wrapBase64 } from "@/lib/labels/base64";
import { presentAddress } from "@/lib/schemas/address";
import { formatTimestamp } from "@/lib/schemas/common";
import { presentParcel } from "@/lib/schemas/parcel";
import { presentPayment } from "@/lib/schemas/payment";
import type { ProxyShippingRequest } from "@/lib/schemas/proxy";
import type { Shipment } from "@/lib/schemas/shipment";
import { presentRate, rateFromInput } from "@/lib/rates/present-rate";
import { proxyTrackingUrl } from "@/lib/trackers/tracking-url";

/**
 * Proxy label purchase: the chosen rate names its connection (carrier_ref), the carrier sells the label, and the
 * answer is a purchased Shipment that is not stored (ids are null).
 */
export async function buyProxyLabel({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: ProxyShippingRequest;
}): Promise<Shipment> {
  const index = input.rates.findIndex((r) => r.id === input.selected_rate_id);
  if (index < 0) throw new ValidationError("must be the id of one of the given rates", "selected_rate_id");
  const chosen = input.rates[index]!;
  const row = await connectionById(ctx.db, ctx.org.id, chosen.carrier_ref, "ship");
  const adapter = getAdapter(row.carrierName)!;
  if (!adapter.label_types.includes(input.label_type)) {
    throw new ValidationError(
      `must be one of: ${adapter.label_types.join(", ")} for ${adapter.display_name}`,
      "label_type",
    );
  }

  // Not the client's signal: a label purchase that reached the carrier must not be abandoned because the client
  // hung up; the carrier deadline still bounds it.
  const outcome = await invokeConnection(row, "ship", undefined, (a, actx) =>
    a.ship(actx, {
      shipper: input.shipper,
      recipient: input.recipient,
      parcels: input.parcels,
      service: chosen.service,
      label_type: input.label_type,
      reference: input.reference,
      options: input.options,
      payment: input.payment,
    }),
  );
  if (!outcome.ok) throw new CarrierFailureError(outcome.messages);
  const shipped = outcome.data;

  // What the carrier says it charged beats what the client sent back; the rate keeps its id.
  const selected = shipped.charge ? presentRate(shipped.charge, row, chosen.id) : rateFromInput(chosen);
  return {
    id: null,
    status: "purchased",
    carrier_name: row.carrierName,
    carrier_id: row.carrierId,
    label: wrapBase64(shipped.label.bytes),
    tracking_number: shipped.tracking_number,
    shipment_identifier: shipped.shipment_identifier,
    selected_rate: selected,
    selected_rate_id: chosen.id,
    rates: input.rates.map((r, i) => (i === index ? selected : rateFromInput(r))),
    tracking_url: proxyTrackingUrl(row.carrierName, shipped.tracking_number),
    service: chosen.service,
    shipper: presentAddress(input.shipper),
    recipient: presentAddress(input.recipient),
    parcels: input.parcels.map((p) => presentParcel(p)),
    services: [],
    options: input.options,
    payment: presentPayment(input.payment, selected.currency),
    customs: (input.options.customs as Record<string, unknown> | undefined) ?? null,
    reference: input.reference,
    label_type: shipped.label.type,
    carrier_ids: [row.carrierId],
    meta: { rate_provider: row.carrierName, service_name: selected.meta.service_name, carrier_connection_id: row.id },
    created_at: formatTimestamp(new Date()),
    test_mode: row.testMode,
    messages: outcome.messages,
    tracker_id: null,
  };
}
