import "server-only";
import type { DomainContext } from "@/lib/context";
import { getAdapter } from "@/lib/carriers/registry";
import type { CarrierMessage } from "@/lib/carriers/types";
import { connectionById } from "@/lib/connections/select-connections";
import { connectionMessages, invokeConnection, pacedAgain } from "@/lib/connections/invoke-connection";
import { CarrierFailureError, StateConflictError, ValidationError } from "@/lib/errors";
import { presentRate, quotedRate } from "@/lib/rates/present-rate";
import { requestedShipDate } from "@/lib/rates/ship-date";
import type { Shipment, ShipmentPurchase } from "@/lib/schemas/shipment";
import {
  assertNoLiveClaim,
  claimLeaseMs,
  claimShipment,
  ClaimLostError,
  releaseClaim,
  renewClaim,
  type Claim,
} from "./claim";
import { documentFacts, loadShipment } from "./load-shipments";
import {
  answerLost,
  attemptWindow,
  carrierReference,
  PURCHASE_ATTEMPT,
  purchaseOutcomeText,
  withoutAttempts,
  type PurchaseAttempt,
} from "./outcome-unknown";
import { customsForLabel, readCustoms } from "./customs-for-label";
import { paymentFor, purchaseMeta } from "./purchase-fields";
import { presentShipment } from "./present-shipment";
import { recordPurchase } from "./record-purchase";
import { carrierAddress, carrierParcel, type ShipmentRow } from "./rows";
import { isLostPurchase, settleLostPurchase } from "./settle-lost-purchase";
import { voidOrphanLabel } from "./void-orphan-label";
import { assertShippableAddresses } from "./shippable-addresses";
import { recordWithRetries } from "./record-retries";

/**
 * POST /v1/shipments/{id}/purchase. Exactly one label per shipment, with this order of operations:
 * 1. claim the shipment in the database, writing the attempt into `meta` (committed; concurrent purchases and
 *    cancellations get a state conflict). An earlier attempt whose answer was lost is settled first
 *    (settle-lost-purchase.ts): its label recorded if the carrier sold it, else bought only when that is known safe
 *    or the client confirmed;
 * 2. buy the label (a refusal releases the claim and the attempt: the shipment stays `created`, a carrier failure;
 *    a timeout or an unreadable answer releases the claim but keeps the attempt: its outcome is unknown);
 * 3. record label, tracker and purchased shipment in one transaction, retried while the database is away;
 * 4. if it cannot be recorded, void the label at the carrier, so no label exists without its shipment row.
 */
export async function purchaseShipment({
  ctx,
  id,
  input,
}: {
  ctx: DomainContext;
  id: string;
  input: ShipmentPurchase;
}): Promise<{ messages: CarrierMessage[]; shipment: Shipment }> {
  const orgId = ctx.org.id;
  // The rate is one of the shipment's own (parts.rates, read with its organization and shipment); no label file yet.
  const parts = await loadShipment(ctx.db, orgId, id, { labels: false });
  const { row } = parts;
  assertPurchasable(row);
  const rate = parts.rates.find((r) => r.id === input.selected_rate_id);
  if (!rate) throw new ValidationError("must be the id of one of this shipment's rates", "selected_rate_id");
  const connection = await connectionById({ ctx, id: rate.carrierRef, capability: "ship" });
  const adapter = getAdapter(connection.carrierName)!;
  const labelType = input.label_type ?? (row.labelType as NonNullable<ShipmentPurchase["label_type"]>);
  if (!adapter.label_types.includes(labelType)) {
    throw new ValidationError(
      `must be one of: ${adapter.label_types.join(", ")} for ${adapter.display_name}`,
      "label_type",
    );
  }
  assertShippableAddresses(parts);
  const shipper = carrierAddress(parts.shipper);
  const recipient = carrierAddress(parts.recipient);
  const given = input.customs ?? (row.customs ? readCustoms(row.customs, "customs", "stored") : null);
  const customs = customsForLabel({ shipper, recipient }, given);
  // This purchase's own values override the ones stored at creation (and are stored with the label).
  const requested = { payment: input.payment ?? row.payment, reference: input.reference ?? row.reference };
  const leaseMs = claimLeaseMs(connection);
  const attemptAt = (now: Date): PurchaseAttempt => ({
    ...attemptWindow(now, new Date(now.getTime() + leaseMs)),
    carrier_connection_id: connection.id,
    carrier_name: connection.carrierName,
    carrier_id: connection.carrierId,
    selected_rate_id: rate.id,
    reference: requested.reference,
    label_type: labelType,
    payment: paymentFor(requested.payment, rate.currency),
    ...(input.customs && customs ? { customs } : {}),
  });
  // `meta` before any attempt: what the shipment goes back to when the carrier refuses.
  const clean = withoutAttempts(row.meta);

  let claim!: Claim;
  let attempt!: PurchaseAttempt;
  const notes: CarrierMessage[] = [];
  // The shipment as the claim below expects to find it.
  let unclaimed = row;
  const lostBefore = isLostPurchase(row);
  if (lostBefore) {
    const settled = await settleLostPurchase({ ctx, row, parts: parts, confirm: input.confirm_rebuy, leaseMs });
    if (settled.kind === "recovered") return settled.answer;
    notes.push(...settled.messages);
    if (ctx.paceCarrier) {
      // Settled (nothing was bought): a paced purchase waits for its slot without a claim, and claims it afresh.
      await releaseClaim(ctx.db, settled.claim, { meta: clean });
      unclaimed = { ...row, meta: clean, pendingOperation: null, pendingUntil: null };
    } else {
      const now = new Date();
      attempt = attemptAt(now);
      claim = await renewClaim(ctx.db, settled.claim, new Date(now.getTime() + leaseMs), {
        meta: { ...clean, [PURCHASE_ATTEMPT]: attempt },
      });
    }
  }
  const claimIt = async () => {
    const now = new Date();
    attempt = attemptAt(now);
    claim = await claimShipment(
      ctx.db,
      unclaimed,
      "purchase",
      ["created"],
      leaseMs,
      { meta: { ...clean, [PURCHASE_ATTEMPT]: attempt } },
      now,
    );
  };
  if (ctx.paceCarrier) {
    // A batch's budget (docs/api.md, "Batches"). The claim is the wait's last step, taken once the slot has come:
    // no purchase waits for its slot holding one (a wait may outlast a lease, and a process dying in it would leave
    // an attempt that looks lost), and nothing but the claim comes between the wait and the carrier's call. A call
    // that turned out late gives its claim back, attempt removed, and waits for another slot. The call's further
    // requests (a retry) wait holding it, but never past the call's deadline, which the lease outlasts.
    await ctx.paceCarrier(connection, { last: claimIt, undo: () => releaseClaim(ctx.db, claim, { meta: clean }) });
  } else if (!lostBefore) {
    await claimIt();
  }

  // Not the client's signal: a purchase that reached the carrier must not be abandoned because the client hung up.
  const outcome = await invokeConnection(
    connection,
    "ship",
    undefined,
    (a, actx) =>
      a.ship(actx, {
        shipper,
        recipient,
        parcels: parts.parcels.map(carrierParcel),
        service: rate.service,
        label_type: labelType,
        // Our id on the carrier's label record when the client gave no reference: the label can be found by it.
        reference: carrierReference(attempt, row.id),
        shipment_key: row.id,
        options: row.options,
        payment: requested.payment,
        customs,
        // Validated when the shipment was rated; a day that has passed since is the first day it can leave.
        ship_date: requestedShipDate(shipper, row.options, new Date(), { pastIsToday: true }),
      }),
    { books: ctx.db, pace: pacedAgain(ctx, connection) },
  );
  if (!outcome.ok) {
    // A timeout or an unreadable answer does not say whether the carrier sold the label: the attempt stays.
    const lost = answerLost(outcome.messages);
    await releaseClaim(ctx.db, claim, lost ? { messages: outcome.messages } : { meta: clean }).catch((err) =>
      // The code only: a driver's error carries the statement's parameters (the attempt's payment, the messages).
      ctx.log.error({
        msg: "could not release a purchase claim; it expires by itself",
        shipment_id: id,
        code: (err as { code?: string }).code ?? null,
      }),
    );
    throw new CarrierFailureError(
      lost ? [...outcome.messages, ...unknownOutcome(connection, attempt, id)] : outcome.messages,
    );
  }

  const shipped = outcome.data;
  const selected = presentRate(shipped.charge ? quotedRate(shipped.charge, connection, rate.id) : rate);
  const messages = [...notes, ...outcome.messages];
  const purchase = {
    claim,
    connection,
    shipped,
    selected,
    messages,
    payment: paymentFor(requested.payment, selected.currency),
    reference: requested.reference,
    customs,
    meta: purchaseMeta(connection, selected),
    recipient: parts.recipient,
    parts: { shipper: parts.shipper, recipient: parts.recipient, parcels: parts.parcels, rates: parts.rates },
  };
  let recorded: ShipmentRow;
  try {
    recorded = await recordWithRetries((retry) => recordPurchase(ctx, purchase, { mayHaveCommitted: retry > 0 }));
  } catch (err) {
    await voidOrphanLabel({ ctx, connection, shipped, claim, cause: err, meta: clean });
    if (err instanceof ClaimLostError) {
      throw new StateConflictError(
        "Another purchase or cancellation took this shipment over; the label bought here was voided.",
      );
    }
    throw err;
  }
  return {
    messages,
    shipment: presentShipment({
      ...parts,
      row: recorded,
      label: { content: shipped.label.bytes },
      // A claimed shipment has no documents before its label: none when the carrier sent none.
      documents: shipped.documents.length > 0 ? await documentFacts(ctx.db, orgId, [id]) : [],
    }),
  };
}

function assertPurchasable(row: ShipmentRow) {
  if (row.status !== "created") {
    throw new StateConflictError(
      row.status === "cancelled"
        ? "The shipment is cancelled; create a new one."
        : `The shipment is already ${row.status}; its label was bought.`,
    );
  }
  assertNoLiveClaim(row);
}

/** The 424's own word on it; the shipment says the same for as long as the attempt stays (outcome-unknown.ts). */
function unknownOutcome(
  connection: Parameters<typeof connectionMessages>[0],
  attempt: PurchaseAttempt,
  shipmentId: string,
): CarrierMessage[] {
  return connectionMessages(connection, [
    {
      code: "purchase_outcome_unknown",
      message: `The carrier's answer was lost. ${purchaseOutcomeText(attempt, shipmentId)}`,
      level: "error",
      details: { started_at: attempt.started_at, settled_by: attempt.settled_by },
    },
  ]);
}
