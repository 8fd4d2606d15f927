import "server-only";
import { guardAddresses } from "@/lib/addresses/guard-addresses";
import { newId } from "@/lib/db/ids";
import type { DomainContext } from "@/lib/context";
import { getAdapter } from "@/lib/carriers/registry";
import type { Customs } from "@/lib/carriers/types";
import { connectionById } from "@/lib/connections/select-connections";
import { invokeConnection } from "@/lib/connections/invoke-connection";
import { CarrierFailureError, ValidationError } from "@/lib/errors";
import { presentRate, quotedRate, rateFromInput } from "@/lib/rates/present-rate";
import { requestedShipDate } from "@/lib/rates/ship-date";
import type { ProxyShippingRequest } from "@/lib/schemas/proxy";
import type { Shipment } from "@/lib/schemas/shipment";
import { unstoredDocument } from "./present-document";
import { presentShipment } from "./present-shipment";
import { customsForLabel, readCustoms } from "./customs-for-label";
import { paymentFor, purchaseMeta } from "./purchase-fields";
import { addressFields, parcelFields } from "./rows";

/** Customs sent the older way, inside `options`, are the shipment's customs when no top-level ones came. */
function customsOf(input: ProxyShippingRequest): Customs | null {
  const legacy = input.options.customs;
  if (!input.customs && typeof legacy === "object" && legacy !== null && !Array.isArray(legacy)) {
    return readCustoms(legacy as Record<string, unknown>, "options.customs", "request");
  }
  return customsForLabel(input, input.customs);
}

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
  const { index, rate: chosen } = input.selected;
  const customs = customsOf(input);
  const shipDate = requestedShipDate(input.shipper, input.options, new Date());
  const row = await connectionById({ ctx, id: chosen.carrier_ref, capability: "ship" });
  const adapter = getAdapter(row.carrierName)!;
  if (!adapter.label_types.includes(input.label_type)) {
    throw new ValidationError(
      `must be one of: ${adapter.label_types.join(", ")} for ${adapter.display_name}`,
      "label_type",
    );
  }
  if (input.validate) {
    await guardAddresses({
      ctx,
      parties: { shipper: input.shipper, recipient: input.recipient },
      validate: true,
      carrier: adapter.carrier_name,
      service: chosen.service,
    });
  }

  // Fresh, as the 2021.7 server minted one; nothing is stored, so the id cannot be retrieved (docs/api.md, "Proxy
  // mode"). The carrier keeps it beside the client's reference, as it does a stored shipment's id.
  const id = newId("shipment");
  // Not the client's signal: a label purchase that reached the carrier must not be abandoned because the client
  // hung up; the carrier deadline still bounds it.
  const outcome = await invokeConnection(
    row,
    "ship",
    undefined,
    (a, actx) =>
      a.ship(actx, {
        shipper: input.shipper,
        recipient: input.recipient,
        parcels: input.parcels,
        service: chosen.service,
        label_type: input.label_type,
        reference: input.reference,
        shipment_key: id,
        options: input.options,
        payment: input.payment,
        customs,
        ship_date: shipDate,
      }),
    { books: ctx.db },
  );
  if (!outcome.ok) throw new CarrierFailureError(outcome.messages);
  const shipped = outcome.data;

  // What the carrier says it charged beats what the client sent back; the rate keeps its id.
  const selected = shipped.charge ? quotedRate(shipped.charge, row, chosen.id) : rateFromInput(chosen, row);
  const presented = presentRate(selected);
  const now = new Date();
  return presentShipment({
    row: {
      id,
      status: "purchased",
      carrierName: row.carrierName,
      carrierId: row.carrierId,
      trackingNumber: shipped.tracking_number,
      shipmentIdentifier: shipped.shipment_identifier,
      selectedRate: presented,
      selectedRateId: chosen.id,
      service: chosen.service,
      services: [],
      options: input.options,
      payment: paymentFor(input.payment, presented.currency),
      customs,
      reference: input.reference,
      labelType: shipped.label.type,
      carrierIds: [row.carrierId],
      meta: purchaseMeta(row, presented),
      createdAt: now,
      testMode: row.testMode,
      messages: outcome.messages,
      trackerId: null,
      refund: null,
    },
    shipper: addressFields(input.shipper),
    recipient: addressFields(input.recipient),
    parcels: input.parcels.map((p) => parcelFields(p)),
    rates: input.rates.map((r, i) => (i === index ? selected : rateFromInput(r))),
    label: { content: shipped.label.bytes },
    // Nothing is stored, so the papers travel inline, as the label does.
    documents: shipped.documents.map((d) => unstoredDocument(d, now)),
  });
}
