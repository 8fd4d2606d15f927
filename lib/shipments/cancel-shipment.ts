import "server-only";
import { recordAudit } from "@/lib/audit/record";
import { withTransaction, type DomainContext } from "@/lib/context";
import { getAdapter } from "@/lib/carriers/registry";
import type { CarrierMessage } from "@/lib/carriers/types";
import { orgConnection } from "@/lib/connections/select-connections";
import { connectionMessages, invokeConnection } from "@/lib/connections/invoke-connection";
import type { ConnectionRow } from "@/lib/connections/present";
import { CarrierFailureError, CarrierNotFoundError, StateConflictError } from "@/lib/errors";
import type { Shipment } from "@/lib/schemas/shipment";
import { stopTracking } from "@/lib/trackers/label-tracker";
import { assertNoLiveClaim, claimLeaseMs, claimShipment, completeClaim, releaseClaim, type Claim } from "./claim";
import { findShipmentRow, loadShipmentParts } from "./load-shipments";
import { lookUpAttempt } from "./look-up-attempt";
import {
  answerLost,
  attemptMessages,
  attemptWindow,
  CANCEL_ATTEMPT,
  carrierReference,
  purchaseAttemptOf,
  withoutAttempts,
} from "./outcome-unknown";
import { recordWithRetries } from "./record-retries";
import { presentShipment } from "./present-shipment";
import type { ShipmentRow } from "./rows";
import { isLostPurchase } from "./settle-lost-purchase";
import { checkRefund, refundStarted } from "./refunds";

/** A cancellation that calls no carrier only needs its claim for the one write that ends it. */
const LOCAL_CANCEL_LEASE_MS = 60_000;
/**
 * POST /v1/shipments/{id}/cancel (docs/api.md, "Managed mode: shipments"): `created` is cancelled here, after voiding
 * whatever an earlier purchase whose answer was lost may have bought; `purchased` voids the label at the carrier first
 * (a refusal is a carrier failure; cancelled here with a warning when the carrier has no void; a void by refund request
 * records the pending refund); cancelled again answers the shipment, after asking the carrier about a pending refund;
 * any later status is a conflict (the parcel is moving).
 */
export async function cancelShipment({
  ctx,
  id,
}: {
  ctx: DomainContext;
  id: string;
}): Promise<{ messages: CarrierMessage[]; shipment: Shipment }> {
  const row = await findShipmentRow(ctx.db, ctx.org.id, id);
  if (row.status === "cancelled") {
    // Cancelling again is how a clerk asks where a pending refund stands (refunds.ts); otherwise it changes nothing.
    const checked = await checkRefund(ctx, row);
    return present(ctx, checked.row, checked.messages);
  }
  if (row.status !== "created" && row.status !== "purchased") {
    throw new StateConflictError(
      `The shipment is ${row.status}; only created or purchased shipments can be cancelled.`,
    );
  }
  assertNoLiveClaim(row);
  const clean = withoutAttempts(row.meta);
  if (row.status === "created") {
    if (isLostPurchase(row)) return cancelLostPurchase(ctx, row);
    // Nothing at the carrier; the claim's guard (status, no live claim, no attempt) still applies to this one write.
    const claim = await claimShipment(ctx.db, row, "cancel", ["created"], LOCAL_CANCEL_LEASE_MS);
    return present(ctx, await finish(ctx, claim, row.trackerId, [], clean), []);
  }

  const connection = row.carrierConnectionId ? await orgConnection({ ctx, id: row.carrierConnectionId }) : null;
  if (!connection) {
    throw new CarrierNotFoundError(
      `The connection that bought this label no longer exists; void the label in the ${row.carrierName} account, or recreate the connection.`,
    );
  }
  const adapter = getAdapter(connection.carrierName)!;
  const leaseMs = claimLeaseMs(connection);
  const now = new Date();
  // The void's attempt is written with the claim: if its answer is lost, the label is withdrawn until a retry settles.
  const cancelAttempt = attemptWindow(now, new Date(now.getTime() + leaseMs));
  const claim = await claimShipment(
    ctx.db,
    row,
    "cancel",
    ["purchased"],
    leaseMs,
    { meta: { ...clean, [CANCEL_ATTEMPT]: cancelAttempt } },
    now,
  );
  if (!adapter.void) {
    const warning = connectionMessages(connection, [
      {
        code: "not_supported",
        message: `${adapter.display_name} labels cannot be voided through its API: the shipment is cancelled here only. ${adapter.unvoidable_note ?? `Ask ${adapter.display_name} for a refund of the unused label if it charges for it.`}`,
        level: "warning",
      },
    ]);
    return present(ctx, await finish(ctx, claim, row.trackerId, warning, clean), warning);
  }
  const outcome = await invokeConnection(
    connection,
    "void",
    undefined,
    (a, actx) => a.void!(actx, { tracking_number: row.trackingNumber!, shipment_identifier: row.shipmentIdentifier }),
    { books: ctx.db },
  );
  if (!outcome.ok) {
    // A timeout or an unreadable answer may hide a void that happened: the attempt stays, and a retry settles it
    // (a carrier answers a second void of a voided label as a success).
    const lost = answerLost(outcome.messages);
    await releaseClaim(ctx.db, claim, lost ? { messages: outcome.messages } : { meta: clean }).catch(() => undefined);
    throw new CarrierFailureError(
      lost
        ? [...outcome.messages, ...attemptMessages({ ...row, meta: { [CANCEL_ATTEMPT]: cancelAttempt } })]
        : outcome.messages,
    );
  }
  const refund = refundStarted(outcome.data.refund, new Date(), adapter.checkRefund !== undefined);
  return present(ctx, await finish(ctx, claim, row.trackerId, outcome.messages, clean, refund), outcome.messages);
}

/**
 * A created shipment whose purchase lost its answer: a label the carrier sold for it must not outlive the
 * cancellation. Where the carrier can look labels up, every label found under the attempt's reference is voided
 * (a refusal is a carrier failure and the shipment stays as it was); where it cannot, or the lookup cannot tell, the
 * shipment is cancelled here with a warning to check the carrier account.
 */
async function cancelLostPurchase(ctx: DomainContext, row: ShipmentRow) {
  const attempt = purchaseAttemptOf(row.meta);
  const lookupConnection = attempt ? await orgConnection({ ctx, id: attempt.carrier_connection_id }) : null;
  const claim = await claimShipment(
    ctx.db,
    row,
    "cancel",
    ["created"],
    lookupConnection ? claimLeaseMs(lookupConnection) : LOCAL_CANCEL_LEASE_MS,
  );
  const messages: CarrierMessage[] = [];
  try {
    const verdict = await lookUpAttempt(ctx, row.id, attempt);
    if (verdict.kind === "found") {
      for (const label of verdict.labels) messages.push(...(await voidFound(ctx, verdict.connection, label)));
    } else if (verdict.kind === "unknown" && verdict.until) {
      // Cancelling now would forget the attempt while the carrier may still sell its label: nothing would look for
      // that label again. Once the carrier has certainly finished, a lookup answers for sure.
      throw new StateConflictError(
        `An earlier purchase attempt lost its answer and ${verdict.reason}. Cancel again after ${verdict.until}.`,
      );
    } else if (verdict.kind === "unknown") {
      const reference = carrierReference(attempt ?? row, row.id);
      messages.push({
        carrier_name: attempt?.carrier_name ?? "",
        carrier_id: attempt?.carrier_id ?? "",
        code: "purchase_outcome_unknown",
        message: `Cancelled here only: an earlier purchase attempt${attempt ? ` (${attempt.started_at})` : ""} lost its answer and ${verdict.reason}. Check the carrier account for a label with reference ${reference} and void it there.`,
        level: "warning",
        details: {},
      });
    }
  } catch (err) {
    // The attempt stays: a retry looks again and voids what is still alive.
    await releaseClaim(ctx.db, claim, {}, attempt ? undefined : row).catch(() => undefined);
    throw err;
  }
  return present(ctx, await finish(ctx, claim, row.trackerId, messages, withoutAttempts(row.meta)), messages);
}

async function voidFound(
  ctx: DomainContext,
  connection: ConnectionRow,
  label: { tracking_number: string; shipment_identifier: string },
): Promise<CarrierMessage[]> {
  const say = (message: string, level: "info" | "warning") =>
    connectionMessages(connection, [
      { code: "purchase_recovered", message, level, details: { tracking_number: label.tracking_number } },
    ]);
  if (!getAdapter(connection.carrierName)?.void) {
    return say(
      `Label ${label.tracking_number}, bought by an earlier purchase attempt whose answer was lost, cannot be voided through the carrier's API: void it in the carrier account.`,
      "warning",
    );
  }
  const outcome = await invokeConnection(
    connection,
    "void",
    undefined,
    (a, actx) =>
      a.void!(actx, { tracking_number: label.tracking_number, shipment_identifier: label.shipment_identifier }),
    { books: ctx.db },
  );
  if (!outcome.ok) throw new CarrierFailureError(outcome.messages);
  return [
    ...say(
      `Voided label ${label.tracking_number}, bought by an earlier purchase attempt whose answer was lost.`,
      "info",
    ),
    ...outcome.messages,
  ];
}

/**
 * Cancels the shipment and stops its tracker (a voided label will not move), while the claim holds; `meta` without
 * the attempts it settled. The tracker is written first: the background refresh locks trackers before shipments,
 * and one lock order means no deadlock. Retried while the database is away: after a void at the carrier the
 * cancellation must be recorded.
 */
async function finish(
  ctx: DomainContext,
  claim: Claim,
  trackerId: string | null,
  messages: CarrierMessage[],
  meta: Record<string, unknown>,
  refund: Pick<ShipmentRow, "refund" | "refundCheckAfter"> = { refund: null, refundCheckAfter: null },
): Promise<ShipmentRow> {
  return recordWithRetries(() =>
    withTransaction(ctx, async (txCtx) => {
      const tx = txCtx.db;
      const now = new Date();
      if (trackerId) await stopTracking(tx, { orgId: claim.orgId, id: trackerId }, now);
      const row = await completeClaim(tx, claim, "cancelled", { messages, meta, ...refund }, now);
      // Rolls the tracker back too.
      if (!row) throw new StateConflictError("The shipment changed while it was being cancelled; fetch it and retry.");
      await recordAudit(txCtx, {
        action: "shipment.cancelled",
        resourceId: claim.shipmentId,
        summary: { label_voided: row.carrierConnectionId !== null, refund: refund.refund?.status ?? null },
      });
      return row;
    }),
  );
}

async function present(ctx: DomainContext, row: ShipmentRow, messages: CarrierMessage[]) {
  const [parts] = await loadShipmentParts(ctx.db, row.orgId, [row]);
  return { messages, shipment: presentShipment(parts!) };
}
