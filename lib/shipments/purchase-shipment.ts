import "server-only";
import { and, eq } from "drizzle-orm";
import type { DomainContext } from "@/lib/context";
import { rates } from "@/lib/db/schema";
import { getAdapter } from "@/lib/carriers/registry";
import { hasCode, type CarrierMessage } from "@/lib/carriers/types";
import { connectionById } from "@/lib/connections/select-connections";
import { connectionMessages, invokeConnection } from "@/lib/connections/invoke-connection";
import type { ConnectionRow } from "@/lib/connections/present";
import { CarrierFailureError, StateConflictError, ValidationError } from "@/lib/errors";
import { presentRate, quotedRate } from "@/lib/rates/present-rate";
import { formatTimestamp } from "@/lib/timestamp";
import type { Shipment, ShipmentPurchase } from "@/lib/schemas/shipment";
import { assertNoLiveClaim, claimLeaseMs, claimShipment, ClaimLostError, releaseClaim } from "./claim";
import { loadShipmentParts, findShipmentRow } from "./load-shipments";
import { paymentFor, purchaseMeta } from "./purchase-fields";
import { presentShipment } from "./present-shipment";
import { recordPurchase } from "./record-purchase";
import { carrierAddress, carrierParcel, type ShipmentRow } from "./rows";
import { voidOrphanLabel } from "./void-orphan-label";
import { recordWithRetries } from "./record-retries";

/**
 * POST /v1/shipments/{id}/purchase. Exactly one label per shipment, with this order of operations:
 * 1. claim the shipment in the database (committed; concurrent purchases and cancellations get a state conflict);
 * 2. buy the label (a refusal releases the claim: the shipment stays `created`, a carrier failure);
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
  const row = await findShipmentRow(ctx.db, orgId, id);
  assertPurchasable(row);
  const [rate] = await ctx.db
    .select()
    .from(rates)
    .where(and(eq(rates.orgId, orgId), eq(rates.shipmentId, id), eq(rates.id, input.selected_rate_id)));
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
  const [parts] = await loadShipmentParts(ctx.db, orgId, [row]);
  const warnings = abandonedAttemptWarning(ctx, row, connection);

  const claim = await claimShipment(ctx.db, row, "purchase", ["created"], claimLeaseMs(connection));
  // Not the client's signal: a purchase that reached the carrier must not be abandoned because the client hung up.
  const outcome = await invokeConnection(
    connection,
    "ship",
    undefined,
    (a, actx) =>
      a.ship(actx, {
        shipper: carrierAddress(parts!.shipper),
        recipient: carrierAddress(parts!.recipient),
        parcels: parts!.parcels.map(carrierParcel),
        service: rate.service,
        label_type: labelType,
        // Our id on the carrier's label record when the client gave no reference: an orphan can be found by it.
        reference: row.reference ?? row.id,
        options: row.customs ? { ...row.options, customs: row.customs } : row.options,
        payment: input.payment,
      }),
    ctx.db,
  );
  if (!outcome.ok) {
    const unsure = outcomeUnknown(outcome.messages, connection, row);
    const messages = [...outcome.messages, ...unsure];
    await releaseClaim(ctx.db, claim, unsure.length > 0 ? unsure : undefined).catch((err) =>
      ctx.log.error({ msg: "could not release a purchase claim; it expires by itself", shipment_id: id, err }),
    );
    throw new CarrierFailureError(messages);
  }

  const shipped = outcome.data;
  const selected = presentRate(shipped.charge ? quotedRate(shipped.charge, connection, rate.id) : rate);
  const messages = [...warnings, ...outcome.messages];
  const purchase = {
    claim,
    connection,
    shipped,
    selected,
    messages,
    payment: paymentFor(input.payment, selected.currency),
    meta: purchaseMeta(connection, selected),
    recipient: parts!.recipient,
  };
  let recorded: ShipmentRow;
  try {
    recorded = await recordWithRetries(() => recordPurchase(ctx, purchase));
  } catch (err) {
    await voidOrphanLabel({ ctx, connection, shipped, claim, cause: err });
    if (err instanceof ClaimLostError) {
      throw new StateConflictError(
        "Another purchase or cancellation took this shipment over; the label bought here was voided.",
      );
    }
    throw err;
  }
  return {
    messages,
    shipment: presentShipment({ ...parts!, row: recorded, label: { content: shipped.label.bytes } }),
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

/**
 * A purchase claim that expired means its process died between buying and recording (or never reached the
 * carrier). Which of the two cannot be known here, so the client is told to check the carrier account.
 */
function abandonedAttemptWarning(ctx: DomainContext, row: ShipmentRow, connection: ConnectionRow): CarrierMessage[] {
  if (row.pendingOperation !== "purchase" || !row.pendingUntil) return [];
  ctx.log.warn({
    msg: "taking over an abandoned purchase claim",
    shipment_id: row.id,
    claim_expired_at: row.pendingUntil,
  });
  return connectionMessages(connection, [
    {
      code: "previous_purchase_unfinished",
      message: `An earlier purchase attempt of this shipment did not finish (claim expired ${formatTimestamp(row.pendingUntil)}). If the carrier account shows a label with reference ${row.reference ?? row.id}, void it there.`,
      level: "warning",
    },
  ]);
}

/**
 * A timeout or an unreadable answer does not say whether the carrier sold the label. The shipment goes back to
 * `created` (the client decides), and both the answer and the shipment's messages say to check the carrier account.
 */
function outcomeUnknown(messages: CarrierMessage[], connection: ConnectionRow, row: ShipmentRow): CarrierMessage[] {
  if (!hasCode(messages, "carrier_timeout") && !hasCode(messages, "carrier_bad_response")) return [];
  return connectionMessages(connection, [
    {
      code: "purchase_outcome_unknown",
      message: `The carrier's answer to the label purchase was lost; it may have created a label with reference ${row.reference ?? row.id}. Check the carrier account (and void it there) before buying again.`,
      level: "warning",
    },
  ]);
}
