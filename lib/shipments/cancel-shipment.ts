import "server-only";
import { withTransaction, type DomainContext } from "@/lib/context";
import { getAdapter } from "@/lib/carriers/registry";
import type { CarrierMessage } from "@/lib/carriers/types";
import { orgConnection } from "@/lib/connections/select-connections";
import { connectionMessages, invokeConnection } from "@/lib/connections/invoke-connection";
import { CarrierFailureError, CarrierNotFoundError, StateConflictError } from "@/lib/errors";
import type { Shipment } from "@/lib/schemas/shipment";
import { stopTracking } from "@/lib/trackers/label-tracker";
import { assertNoLiveClaim, claimLeaseMs, claimShipment, completeClaim, releaseClaim, type Claim } from "./claim";
import { findShipmentRow, loadShipmentParts } from "./load-shipments";
import { recordWithRetries } from "./record-retries";
import { presentShipment } from "./present-shipment";
import type { ShipmentRow } from "./rows";

/**
 * POST /v1/shipments/{id}/cancel (docs/api.md, "Managed mode: shipments"): `created` is cancelled here; `purchased`
 * voids the label at the carrier first (a refusal is a carrier failure; cancelled here with a warning when the
 * carrier has no void); cancelled again answers the shipment; any later status is a conflict (the parcel is moving).
 */
export async function cancelShipment({
  ctx,
  id,
}: {
  ctx: DomainContext;
  id: string;
}): Promise<{ messages: CarrierMessage[]; shipment: Shipment }> {
  const row = await findShipmentRow(ctx.db, ctx.org.id, id);
  if (row.status === "cancelled") return present(ctx, row, []);
  if (row.status !== "created" && row.status !== "purchased") {
    throw new StateConflictError(
      `The shipment is ${row.status}; only created or purchased shipments can be cancelled.`,
    );
  }
  assertNoLiveClaim(row);
  if (row.status === "created") {
    // Nothing at the carrier yet; the claim's guard (status and no live claim) still applies to this one write.
    const claim = await claimShipment(ctx.db, row, "cancel", ["created"], 60_000);
    return present(ctx, await finish(ctx, claim, row.trackerId, []), []);
  }

  const connection = row.carrierConnectionId ? await orgConnection({ ctx, id: row.carrierConnectionId }) : null;
  if (!connection) {
    throw new CarrierNotFoundError(
      `The connection that bought this label no longer exists; void the label in the ${row.carrierName} account, or recreate the connection.`,
    );
  }
  const adapter = getAdapter(connection.carrierName)!;
  const claim = await claimShipment(ctx.db, row, "cancel", ["purchased"], claimLeaseMs(connection));
  if (!adapter.void) {
    const warning = connectionMessages(connection, [
      {
        code: "not_supported",
        message: `${adapter.display_name} labels cannot be voided through its API: the shipment is cancelled here only. Ask ${adapter.display_name} for a refund of the unused label if it charges for it.`,
        level: "warning",
      },
    ]);
    return present(ctx, await finish(ctx, claim, row.trackerId, warning), warning);
  }
  const outcome = await invokeConnection(
    connection,
    "void",
    undefined,
    (a, actx) => a.void!(actx, { tracking_number: row.trackingNumber!, shipment_identifier: row.shipmentIdentifier }),
    ctx.db,
  );
  if (!outcome.ok) {
    await releaseClaim(ctx.db, claim).catch(() => undefined);
    throw new CarrierFailureError(outcome.messages);
  }
  return present(ctx, await finish(ctx, claim, row.trackerId, outcome.messages), outcome.messages);
}

/**
 * Cancels the shipment and stops its tracker (a voided label will not move), while the claim holds. The tracker is
 * written first: the background refresh locks trackers before shipments, and one lock order means no deadlock.
 * Retried while the database is away: after a void at the carrier the cancellation must be recorded.
 */
async function finish(
  ctx: DomainContext,
  claim: Claim,
  trackerId: string | null,
  messages: CarrierMessage[],
): Promise<ShipmentRow> {
  return recordWithRetries(() =>
    withTransaction(ctx, async ({ db: tx }) => {
      const now = new Date();
      if (trackerId) await stopTracking(tx, { orgId: claim.orgId, id: trackerId }, now);
      const row = await completeClaim(tx, claim, "cancelled", { messages }, now);
      // Rolls the tracker back too.
      if (!row) throw new StateConflictError("The shipment changed while it was being cancelled; fetch it and retry.");
      return row;
    }),
  );
}

async function present(ctx: DomainContext, row: ShipmentRow, messages: CarrierMessage[]) {
  const [parts] = await loadShipmentParts(ctx.db, row.orgId, [row]);
  return { messages, shipment: presentShipment(parts!) };
}
