import "server-only";
import { and, eq } from "drizzle-orm";
import { withTransaction, type DomainContext } from "@/lib/context";
import { labels, shipmentDocuments, shipments } from "@/lib/db/schema";
import { newId } from "@/lib/db/ids";
import { inOneTrip } from "@/lib/db/tx";
import type { CarrierMessage, Customs, ShipResult } from "@/lib/carriers/types";
import type { ConnectionRow } from "@/lib/connections/present";
import type { Payment } from "@/lib/schemas/payment";
import type { Rate } from "@/lib/schemas/rate";
import { recordAudit } from "@/lib/audit/record";
import { trackNewLabel } from "@/lib/trackers/label-tracker";
import { ClaimLostError, completeClaim, type Claim } from "./claim";
import type { DocumentFields } from "./present-document";
import type { PartsInHand } from "./shipment-events";
import { searchTextOf, type AddressRow, type ShipmentRow } from "./rows";

/** What a purchase has in hand once the carrier sold the label. */
export interface PurchaseRecord {
  claim: Claim;
  connection: ConnectionRow;
  shipped: ShipResult;
  selected: Rate;
  messages: CarrierMessage[];
  payment: Payment;
  /** The client's reference for this purchase (the request's, else the shipment's). */
  reference: string | null;
  /** The customs the label was bought with (the request's, else the shipment's), as validated. */
  customs: Customs | Record<string, unknown> | null;
  meta: Record<string, unknown>;
  recipient: AddressRow;
  /**
   * The shipment's addresses, parcels and rates as read when the purchase started (a claimed shipment keeps them),
   * when the caller has them: its `shipment.purchased` event is presented from them, not read again.
   */
  parts?: Omit<PartsInHand, "documents">;
}

/**
 * Step 3 of a purchase, in one transaction: the label file and the carrier's documents, the tracker (created, or an existing tracker of the
 * same number linked), and the shipment turned `purchased` — only while our claim still holds. Safe to run again
 * after an attempt whose commit may have landed (`mayHaveCommitted`, true unless this is the first attempt): it
 * recognises its own tracking number and returns that row. A first attempt skips that read: nothing else writes this
 * purchase's tracking number.
 */
export async function recordPurchase(
  ctx: DomainContext,
  p: PurchaseRecord,
  { mayHaveCommitted = true }: { mayHaveCommitted?: boolean } = {},
): Promise<ShipmentRow> {
  const { claim, connection, shipped } = p;
  const now = new Date();
  return withTransaction(ctx, async (txCtx) => {
    const tx = txCtx.db;
    if (mayHaveCommitted) {
      const [current] = await tx
        .select()
        .from(shipments)
        .where(and(eq(shipments.orgId, claim.orgId), eq(shipments.id, claim.shipmentId)));
      if (current?.status === "purchased" && current.trackingNumber === shipped.tracking_number) return current;
    }

    const documents = shipped.documents.map((d, position) => ({
      id: newId("document"),
      orgId: claim.orgId,
      shipmentId: claim.shipmentId,
      position,
      type: d.type,
      format: d.format,
      name: d.name,
      content: d.bytes,
      createdAt: now,
    }));
    const [trackerId] = await inOneTrip([
      trackNewLabel(
        tx,
        { orgId: claim.orgId, shipmentId: claim.shipmentId, trackingNumber: shipped.tracking_number, connection },
        now,
      ),
      tx.insert(labels).values({
        shipmentId: claim.shipmentId,
        orgId: claim.orgId,
        type: shipped.label.type,
        content: shipped.label.bytes,
      }),
      documents.length > 0 ? tx.insert(shipmentDocuments).values(documents) : null,
    ]);
    // What documentFacts would read back (a claimed shipment had none before its label), for the event.
    const facts: DocumentFields[] = documents.map((d) => ({
      id: d.id,
      type: d.type,
      format: d.format,
      name: d.name,
      size: d.content.byteLength,
      createdAt: d.createdAt,
      content: null,
    }));
    // The audit row goes out with the claim's write, in one round trip: a lost claim rolls both back.
    const [row] = await inOneTrip([
      completeClaim(
        tx,
        claim,
        "purchased",
        {
          carrierConnectionId: connection.id,
          carrierName: connection.carrierName,
          carrierId: connection.carrierId,
          trackingNumber: shipped.tracking_number,
          shipmentIdentifier: shipped.shipment_identifier,
          selectedRateId: p.selected.id,
          selectedRate: p.selected,
          service: p.selected.service,
          labelType: shipped.label.type,
          payment: p.payment,
          reference: p.reference,
          customs: p.customs,
          meta: p.meta,
          testMode: connection.testMode,
          messages: p.messages,
          trackerId,
          searchText: searchTextOf({
            reference: p.reference,
            trackingNumber: shipped.tracking_number,
            recipient: p.recipient,
          }),
        },
        now,
        p.parts && { ...p.parts, documents: facts },
      ),
      recordAudit(txCtx, {
        action: "shipment.purchased",
        resourceId: claim.shipmentId,
        summary: {
          connection_id: connection.id,
          carrier: connection.carrierName,
          service: p.selected.service,
          rate_id: p.selected.id,
          total_charge: p.selected.total_charge,
          currency: p.selected.currency,
          label_type: shipped.label.type,
          tracker_id: trackerId,
          test_mode: connection.testMode,
        },
      }),
    ]);
    // Rolls back the label, the tracker and the audit row too.
    if (!row) throw new ClaimLostError();
    return row;
  });
}
