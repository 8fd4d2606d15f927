import "server-only";
import { and, eq } from "drizzle-orm";
import type { DomainContext } from "@/lib/context";
import { rates } from "@/lib/db/schema";
import type { CarrierMessage, FoundShipment } from "@/lib/carriers/types";
import { connectionMessages } from "@/lib/connections/invoke-connection";
import type { ConnectionRow } from "@/lib/connections/present";
import { PurchaseOutcomeUnknownError, StateConflictError } from "@/lib/errors";
import { presentRate, quotedRate } from "@/lib/rates/present-rate";
import type { Shipment } from "@/lib/schemas/shipment";
import { ClaimLostError, claimShipment, releaseClaim, type Claim } from "./claim";
import { documentFacts, type ShipmentParts } from "./load-shipments";
import { lookUpAttempt } from "./look-up-attempt";
import { carrierReference, purchaseAttemptOf, purchaseOutcomeText, type PurchaseAttempt } from "./outcome-unknown";
import { purchaseMeta } from "./purchase-fields";
import { presentShipment } from "./present-shipment";
import { recordPurchase } from "./record-purchase";
import { recordWithRetries } from "./record-retries";
import type { ShipmentRow } from "./rows";

/**
 * A purchase of a shipment whose earlier purchase lost its answer (docs/api.md, "When an answer is lost"). Buying
 * straight away could buy a second label, so the earlier attempt is settled first, under a claim of its own so that
 * concurrent retries settle it once:
 * - the carrier can look labels up and has the one sold under the attempt's reference: that label is recorded as
 *   the purchase (nothing is bought);
 * - it can, has none, and the attempt is certainly over at the carrier: it never got there; buy;
 * - otherwise (no lookup, the lookup failed, too early to be sure, several labels): 409 purchase_outcome_unknown,
 *   unless the client confirmed a re-buy (`confirm_rebuy`), which buys and says what may be left at the carrier.
 */

/** An attempt in `meta`, or a purchase claim that expired (its process died) from before attempts were kept. */
export function isLostPurchase(row: ShipmentRow): boolean {
  return purchaseAttemptOf(row.meta) !== null || row.pendingOperation === "purchase";
}

export type Settlement =
  | { kind: "recovered"; answer: { messages: CarrierMessage[]; shipment: Shipment } }
  /** Safe (or confirmed) to buy, under `claim`; `messages` say why. */
  | { kind: "buy"; claim: Claim; messages: CarrierMessage[] };

export async function settleLostPurchase({
  ctx,
  row,
  parts,
  confirm,
  leaseMs,
}: {
  ctx: DomainContext;
  row: ShipmentRow;
  parts: ShipmentParts;
  confirm: boolean;
  leaseMs: number;
}): Promise<Settlement> {
  const attempt = purchaseAttemptOf(row.meta);
  // Keeps the attempt as it is: it stays until a recorded purchase (or a cancellation) replaces it.
  const claim = await claimShipment(ctx.db, row, "purchase", ["created"], leaseMs);
  try {
    const verdict = await lookUpAttempt(ctx, row.id, attempt);
    if (verdict.kind === "found" && verdict.labels.length === 1) {
      return {
        kind: "recovered",
        answer: await recover(ctx, claim, parts, attempt!, verdict.labels[0], verdict.connection),
      };
    }
    if (verdict.kind === "none") {
      return { kind: "buy", claim, messages: [] };
    }
    const reason =
      verdict.kind === "found"
        ? `${attempt!.carrier_name} holds ${verdict.labels.length} labels with reference ${carrierReference(attempt!, row.id)} sold since then (${verdict.labels.map((l) => l.tracking_number).join(", ")})`
        : verdict.reason;
    if (!confirm) {
      throw new PurchaseOutcomeUnknownError(
        attempt
          ? `${purchaseOutcomeText(attempt, row.id)} It is not settled: ${reason}.`
          : `An earlier purchase of this shipment did not finish, and its outcome is unknown: ${reason}. Check the carrier account for a label with reference ${carrierReference(row, row.id)}, then send the purchase again with "confirm_rebuy": true to buy a label anyway, or cancel the shipment.`,
      );
    }
    return { kind: "buy", claim, messages: rebuyWarning(attempt, row, reason) };
  } catch (err) {
    // The attempt stays in `meta`: the next purchase or cancellation settles it.
    await releaseClaim(ctx.db, claim, {}, attempt ? undefined : row).catch(() => undefined);
    throw err;
  }
}

/**
 * Records the label the carrier sold to the earlier attempt, with that attempt's rate, payment and reference: it is
 * the label bought, whatever this request asked for. Not voided if recording fails: it is the shipment's label, and
 * the attempt stays in `meta` for the next try to find it again.
 */
async function recover(
  ctx: DomainContext,
  claim: Claim,
  parts: ShipmentParts,
  attempt: PurchaseAttempt,
  found: FoundShipment,
  connection: ConnectionRow,
): Promise<{ messages: CarrierMessage[]; shipment: Shipment }> {
  const [rate] = await ctx.db
    .select()
    .from(rates)
    .where(
      and(eq(rates.orgId, claim.orgId), eq(rates.shipmentId, claim.shipmentId), eq(rates.id, attempt.selected_rate_id)),
    );
  const selected = presentRate(found.charge ? quotedRate(found.charge, connection, attempt.selected_rate_id) : rate!);
  const messages = connectionMessages(connection, [
    {
      code: "purchase_recovered",
      message: `The label bought by the purchase attempt of ${attempt.started_at}, whose answer was lost, was found at ${attempt.carrier_name} under reference ${carrierReference(attempt, claim.shipmentId)} and recorded; no label was bought again. It was bought with that attempt's rate, payment and reference.`,
      level: "info",
      details: { tracking_number: found.tracking_number, started_at: attempt.started_at },
    },
  ]);
  let recorded: ShipmentRow;
  try {
    recorded = await recordWithRetries(() =>
      recordPurchase(ctx, {
        claim,
        connection,
        shipped: found,
        selected,
        messages,
        payment: attempt.payment,
        reference: attempt.reference,
        customs: attempt.customs ?? parts.row.customs,
        meta: purchaseMeta(connection, selected),
        recipient: parts.recipient,
      }),
    );
  } catch (err) {
    // Another purchase or cancellation took the shipment over meanwhile: it settles the label, not this request.
    if (err instanceof ClaimLostError) {
      throw new StateConflictError("Another purchase or cancellation took this shipment over; fetch it and retry.");
    }
    throw err;
  }
  const documents = await documentFacts(ctx.db, claim.orgId, [claim.shipmentId]);
  return {
    messages,
    shipment: presentShipment({ ...parts, row: recorded, label: { content: found.label.bytes }, documents }),
  };
}

function rebuyWarning(attempt: PurchaseAttempt | null, row: ShipmentRow, reason: string): CarrierMessage[] {
  const message = `Bought again as confirmed (confirm_rebuy), although the earlier purchase attempt's outcome is unknown (${reason}). If the carrier account shows an earlier label with reference ${carrierReference(attempt ?? row, row.id)}, void it there.`;
  return [
    {
      carrier_name: attempt?.carrier_name ?? "",
      carrier_id: attempt?.carrier_id ?? "",
      code: "purchase_outcome_unknown",
      message,
      level: "warning",
      details: attempt ? { started_at: attempt.started_at } : {},
    },
  ];
}
