import { and, eq } from "drizzle-orm";
import type { DomainContext } from "@/lib/context";
import { shipments, trackers } from "@/lib/db/schema";
import type { Db } from "@/lib/db/tx";
import { getAdapter } from "@/lib/carriers/registry";
import type { CarrierMessage } from "@/lib/carriers/types";
import { findConnectionRow } from "@/lib/connections/find-connection";
import { connectionMessages, invokeConnection } from "@/lib/connections/invoke-connection";
import { CarrierFailureError, CarrierNotFoundError, NotFoundError, StateConflictError } from "@/lib/errors";
import type { Shipment } from "@/lib/schemas/shipment";
import { assertNoLiveClaim, claimLeaseMs, claimShipment, heldBy, releaseClaim, type Claim } from "./claim";
import { findShipmentRow, loadShipmentParts } from "./load-shipments";
import { RECORD_RETRY_DELAYS_MS, recordWithRetries } from "./record-retries";
import { presentShipment, type ShipmentRow } from "./present-shipment";

/**
 * POST /v1/shipments/{id}/cancel (CONTRACT §6): `created` is cancelled here; `purchased` voids the label at the
 * carrier first (424 when it refuses; cancelled here with a warning when the carrier has no void); cancelled
 * again answers 200; any later status is 409 (the parcel is moving).
 */
export async function cancelShipment({
  ctx,
  id,
}: {
  ctx: DomainContext;
  id: string;
}): Promise<{ messages: CarrierMessage[]; shipment: Shipment }> {
  const orgId = ctx.org.id;
  const row = await findShipmentRow(ctx.db, orgId, id);
  if (row.status === "cancelled") return present(ctx.db, row, []);
  if (row.status !== "created" && row.status !== "purchased") {
    throw new StateConflictError(
      `The shipment is ${row.status}; only created or purchased shipments can be cancelled.`,
    );
  }
  assertNoLiveClaim(row);
  if (row.status === "created") {
    // Nothing at the carrier yet; the claim's guard (status and no live claim) still applies to this one write.
    const claim = await claimShipment(ctx.db, row, "cancel", ["created"], 60_000);
    return present(ctx.db, await finish(ctx.db, claim, row.trackerId, []), []);
  }

  const connection = row.carrierConnectionId
    ? await findConnectionRow(ctx.db, orgId, row.carrierConnectionId).catch(notFoundToNull)
    : null;
  if (!connection) {
    throw new CarrierNotFoundError(
      `The connection that bought this label no longer exists; void the label in the ${row.carrierName} account, or recreate the connection.`,
    );
  }
  const adapter = getAdapter(connection.carrierName)!;
  const claim = await claimShipment(ctx.db, row, "cancel", ["purchased"], claimLeaseMs(connection));
  if (!adapter.capabilities.includes("void")) {
    const warning = connectionMessages(connection, [
      {
        code: "not_supported",
        message: `${adapter.display_name} labels cannot be voided through its API: the shipment is cancelled here only. Ask ${adapter.display_name} for a refund of the unused label if it charges for it.`,
        level: "warning",
      },
    ]);
    return present(ctx.db, await finish(ctx.db, claim, row.trackerId, warning), warning);
  }
  const outcome = await invokeConnection(connection, "void", undefined, (a, actx) =>
    a.void(actx, { tracking_number: row.trackingNumber!, shipment_identifier: row.shipmentIdentifier }),
  );
  if (!outcome.ok) {
    await releaseClaim(ctx.db, claim).catch(() => undefined);
    throw new CarrierFailureError(outcome.messages, { shipment: null });
  }
  return present(ctx.db, await finish(ctx.db, claim, row.trackerId, outcome.messages), outcome.messages);
}

const notFoundToNull = (err: unknown) => {
  if (err instanceof NotFoundError) return null;
  throw err;
};

/**
 * Cancels the shipment and stops its tracker (a voided label will not move), while the claim holds. The tracker is
 * written first: the background refresh locks trackers before shipments, and one lock order means no deadlock.
 * Retried while the database is away: after a void at the carrier the cancellation must be recorded.
 */
async function finish(
  db: Db,
  claim: Claim,
  trackerId: string | null,
  messages: CarrierMessage[],
): Promise<ShipmentRow> {
  return recordWithRetries(RECORD_RETRY_DELAYS_MS, () =>
    db.transaction(async (tx) => {
      const now = new Date();
      if (trackerId) {
        await tx
          .update(trackers)
          .set({ status: "cancelled", nextRefreshAt: null, updatedAt: now })
          .where(and(eq(trackers.orgId, claim.orgId), eq(trackers.id, trackerId)));
      }
      const [row] = await tx
        .update(shipments)
        .set({ status: "cancelled", messages, pendingOperation: null, pendingUntil: null, updatedAt: now })
        .where(heldBy(claim))
        .returning();
      // Rolls the tracker back too.
      if (!row) throw new StateConflictError("The shipment changed while it was being cancelled; fetch it and retry.");
      return row;
    }),
  );
}

async function present(db: Db, row: ShipmentRow, messages: CarrierMessage[]) {
  const [parts] = await loadShipmentParts(db, row.orgId, [row]);
  return { messages, shipment: presentShipment(parts!) };
}
