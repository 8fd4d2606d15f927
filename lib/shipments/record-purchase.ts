import { and, eq } from "drizzle-orm";
import { labels, shipments, trackers } from "@/lib/db/schema";
import type { Db } from "@/lib/db/tx";
import { newId } from "@/lib/db/ids";
import { FIRST_REFRESH_AFTER_PURCHASE_MS } from "@/lib/trackers/tracking-rules";
import { refreshTimeScale } from "@/lib/trackers/refresh/budget";
import { ClaimLostError, heldBy } from "./claim";
import { searchTextOf, type ShipmentRow } from "./present-shipment";
import type { CarrierMessage, ShipResult } from "@/lib/carriers/types";
import type { ConnectionRow } from "@/lib/connections/present";
import type { Payment } from "@/lib/schemas/payment";
import type { Rate } from "@/lib/schemas/rate";
import type { Claim } from "./claim";

/** What a purchase has in hand once the carrier sold the label. */
export interface PurchaseRecord {
  claim: Claim;
  connection: ConnectionRow;
  shipped: ShipResult;
  selected: Rate;
  messages: CarrierMessage[];
  payment: Payment;
  meta: Record<string, unknown>;
  recipient: { personName: string | null; companyName: string | null; city: string; postalCode: string };
}

/**
 * Step 3 of a purchase, in one transaction: the label file, the tracker (created, or an existing tracker of the
 * same number linked), and the shipment turned `purchased` — only while our claim still holds. Safe to run again
 * after an attempt whose commit may have landed: it recognises its own tracking number and returns that row.
 */
export async function recordPurchase(db: Db, p: PurchaseRecord): Promise<ShipmentRow> {
  const { claim, connection, shipped } = p;
  const now = new Date();
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(shipments)
      .where(and(eq(shipments.orgId, claim.orgId), eq(shipments.id, claim.shipmentId)));
    if (current?.status === "purchased" && current.trackingNumber === shipped.tracking_number) return current;

    await tx.insert(labels).values({
      shipmentId: claim.shipmentId,
      orgId: claim.orgId,
      type: shipped.label.type,
      content: shipped.label.bytes,
    });
    const [tracker] = await tx
      .insert(trackers)
      .values({
        id: newId("tracker"),
        orgId: claim.orgId,
        carrierName: connection.carrierName,
        carrierId: connection.carrierId,
        carrierConnectionId: connection.id,
        trackingNumber: shipped.tracking_number,
        status: "pending",
        testMode: connection.testMode,
        shipmentId: claim.shipmentId,
        nextRefreshAt: new Date(now.getTime() + FIRST_REFRESH_AFTER_PURCHASE_MS * refreshTimeScale(connection)),
      })
      .onConflictDoUpdate({
        target: [trackers.orgId, trackers.carrierName, trackers.trackingNumber],
        // The same number tracked before (or a carrier reusing numbers): this label's tracker starts afresh.
        set: {
          shipmentId: claim.shipmentId,
          status: "pending",
          nextRefreshAt: new Date(now.getTime() + FIRST_REFRESH_AFTER_PURCHASE_MS * refreshTimeScale(connection)),
          retiredAt: null,
          refreshFailures: 0,
          updatedAt: now,
        },
      })
      .returning({ id: trackers.id });
    const [row] = await tx
      .update(shipments)
      .set({
        status: "purchased",
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
        meta: p.meta,
        testMode: connection.testMode,
        messages: p.messages,
        trackerId: tracker!.id,
        pendingOperation: null,
        pendingUntil: null,
        searchText: searchTextOf({
          reference: current?.reference ?? null,
          trackingNumber: shipped.tracking_number,
          recipient: {
            person_name: p.recipient.personName,
            company_name: p.recipient.companyName,
            city: p.recipient.city,
            postal_code: p.recipient.postalCode,
          },
        }),
        updatedAt: now,
      })
      .where(heldBy(claim))
      .returning();
    if (!row) throw new ClaimLostError();
    return row;
  });
}
