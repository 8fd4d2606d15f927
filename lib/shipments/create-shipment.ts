import "server-only";
import { guardAddresses, type AddressGuardSummary } from "@/lib/addresses/guard-addresses";
import { recordAudit } from "@/lib/audit/record";
import { recordEvents } from "@/lib/webhooks/outbox";
import { withTransaction, type DomainContext } from "@/lib/context";
import { rememberShipFrom } from "@/lib/auth/memberships";
import { addresses, parcels as parcelsTable, rates as ratesTable, shipments } from "@/lib/db/schema";
import { newId } from "@/lib/db/ids";
import { inOneTrip } from "@/lib/db/tx";
import { fetchRates } from "@/lib/rates/fetch-rates";
import type { Shipment, ShipmentCreate } from "@/lib/schemas/shipment";
import { presentShipment } from "./present-shipment";
import { addressFields, addressValues, parcelValues, rateValues, searchTextOf } from "./rows";

/**
 * POST /v1/shipments: rate with the selected connections (the proxy's fan-out), then store the shipment, its
 * addresses, parcels and rates in one transaction. Every carrier failing is a carrier failure and stores nothing;
 * partial failures stay on the shipment as `messages`.
 */
export async function createShipment({ ctx, input }: { ctx: DomainContext; input: ShipmentCreate }): Promise<Shipment> {
  // Before any carrier is asked for a rate: an invalid address with `validate: true` costs nothing.
  const checked = await guardAddresses({
    ctx,
    parties: { shipper: input.shipper, recipient: input.recipient },
    validate: input.validate,
  });
  const quoted = await fetchRates({ ctx, input });
  return storeShipment({ ctx, input, quoted, checked });
}

/**
 * Stores a shipment rated already (`quoted`: fetchRates's answer), under `id` when the caller allotted one (a batch
 * row: a second store of the same id fails on the primary key rather than making a second shipment). `checked`: what
 * the address guard decided, for the audit row.
 */
export async function storeShipment({
  ctx,
  input,
  quoted,
  id = newId("shipment"),
  checked,
}: {
  ctx: DomainContext;
  input: ShipmentCreate;
  quoted: Awaited<ReturnType<typeof fetchRates>>;
  id?: string;
  checked?: AddressGuardSummary;
}): Promise<Shipment> {
  const orgId = ctx.org.id;
  const shipperId = newId("address");
  const recipientId = newId("address");
  const parts = await withTransaction(ctx, async (txCtx) => {
    const tx = txCtx.db;
    // Sent together, in this order: the shipment refers to its addresses, parcels and rates to the shipment, and the
    // transaction's connection runs its statements in the order they were sent.
    const [addressRows, [row], parcelRows, rateRows] = await inOneTrip([
      tx
        .insert(addresses)
        .values([addressValues(input.shipper, shipperId, orgId), addressValues(input.recipient, recipientId, orgId)])
        .returning(),
      tx
        .insert(shipments)
        .values({
          id,
          orgId,
          status: "created",
          shipperId,
          recipientId,
          carrierIds: input.carrier_ids,
          services: input.services,
          options: input.options,
          customs: input.customs,
          reference: input.reference,
          payment: input.payment,
          labelType: input.label_type,
          testMode: quoted.testMode,
          messages: quoted.messages,
          meta: {},
          searchText: searchTextOf({
            reference: input.reference,
            trackingNumber: null,
            recipient: addressFields(input.recipient),
          }),
        })
        .returning(),
      tx
        .insert(parcelsTable)
        .values(input.parcels.map((p, i) => parcelValues(p, newId("parcel"), orgId, id, i)))
        .returning(),
      quoted.rates.length === 0
        ? []
        : tx
            .insert(ratesTable)
            .values(quoted.rates.map((r, i) => rateValues(r, orgId, id, i)))
            .returning(),
      // The dashboard prefills a person's next label with this ship-from (docs/api.md, "Accounts and roles").
      rememberShipFrom({ ...ctx, db: tx }, input.shipper),
    ]);
    const shipper = addressRows.find((a) => a.id === shipperId);
    const recipient = addressRows.find((a) => a.id === recipientId);
    // RETURNING promises no order: put parts back in position order, as loadShipmentParts reads them.
    const byPosition = <T extends { position: number }>(rows: T[]) => rows.sort((x, y) => x.position - y.position);
    const created = {
      row: row!,
      shipper: shipper!,
      recipient: recipient!,
      parcels: byPosition(parcelRows),
      rates: byPosition(rateRows),
      label: null,
      documents: [],
    };
    const presented = presentShipment(created);
    await inOneTrip([
      recordEvents(tx, [{ orgId, type: "shipment.created", resourceId: id, testMode: row!.testMode, data: presented }]),
      recordAudit(txCtx, {
        action: "shipment.created",
        resourceId: id,
        summary: {
          test_mode: row!.testMode,
          parcels: parcelRows.length,
          rates: rateRows.length,
          ...(input.carrier_ids ? { carrier_ids: input.carrier_ids } : {}),
          ...checked,
        },
      }),
    ]);
    return presented;
  });
  return parts;
}
