import { hasCode, type CarrierMessage, type LabelType } from "@/lib/carriers/types";
import type { Payment } from "@/lib/schemas/payment";
import { formatTimestamp } from "@/lib/timestamp";

/**
 * What a shipment remembers about a carrier operation whose answer it does not have (docs/api.md, "Managed mode:
 * shipments", "When an answer is lost"). A purchase or cancellation writes its attempt into `meta` when it claims the
 * shipment, before the carrier is called, and the write that records the outcome removes it. So an attempt still in
 * `meta` once its claim is gone (a process that died, a carrier timeout) is an operation that may have happened at
 * the carrier: the shipment is not bought again, and a purchased label is not handed out, until it is settled.
 * The keys live in `meta`, whose contents are open, so clients see them without a change to the Shipment's fields.
 */

export const PURCHASE_ATTEMPT = "purchase_attempt";
export const CANCEL_ATTEMPT = "cancel_attempt";

/** `meta.purchase_attempt`: what was sent to the carrier, enough to look the sale up and to record it when found. */
export interface PurchaseAttempt {
  started_at: string;
  /** The claim's deadline: by then the carrier has certainly finished with the request (a lookup is conclusive). */
  settled_by: string;
  carrier_connection_id: string;
  carrier_name: string;
  carrier_id: string;
  selected_rate_id: string;
  /** The client's reference sent with the purchase; null when the shipment id was sent in its place. */
  reference: string | null;
  label_type: LabelType;
  payment: Payment;
  /** Customs the purchase request sent in place of the shipment's; absent when it sent none. */
  customs?: Record<string, unknown>;
}

/** `meta.cancel_attempt`: a void sent to the carrier and not recorded. */
interface CancelAttempt {
  started_at: string;
  settled_by: string;
}

type Meta = Record<string, unknown>;

export const purchaseAttemptOf = (meta: Meta): PurchaseAttempt | null =>
  (meta[PURCHASE_ATTEMPT] as PurchaseAttempt | undefined) ?? null;

const cancelAttemptOf = (meta: Meta): CancelAttempt | null =>
  (meta[CANCEL_ATTEMPT] as CancelAttempt | undefined) ?? null;

/** `meta` once the operation's outcome is recorded (or known not to have happened). */
export function withoutAttempts(meta: Meta): Meta {
  const { [PURCHASE_ATTEMPT]: _purchase, [CANCEL_ATTEMPT]: _cancel, ...rest } = meta;
  return rest;
}

/**
 * The reference the carrier got: the client's, or the shipment id so that the label can still be found by it. From
 * the attempt when one was recorded, else from the shipment row (an attempt made before attempts were recorded).
 */
export const carrierReference = (sent: Pick<PurchaseAttempt, "reference">, shipmentId: string) =>
  sent.reference ?? shipmentId;

/**
 * docs/api.md, "When an answer is lost": a timeout or an unreadable answer does not say whether the carrier did what
 * it was asked (sold the label, voided it); any other failure is the carrier's refusal.
 */
export const answerLost = (messages: CarrierMessage[]) =>
  hasCode(messages, "carrier_timeout") || hasCode(messages, "carrier_bad_response");

export function attemptWindow(now: Date, until: Date) {
  return { started_at: formatTimestamp(now), settled_by: formatTimestamp(until) };
}

/** Timestamps in `meta` are in the API's format, which Date reads once the space is a "T". */
export const instantOf = (timestamp: string) => new Date(timestamp.replace(" ", "T"));

/** The message that tells a client what to do about a purchase whose outcome is unknown. */
export function purchaseOutcomeText(attempt: PurchaseAttempt, shipmentId: string): string {
  return (
    `A label purchase of this shipment was sent to ${attempt.carrier_name} (${attempt.carrier_id}) at ` +
    `${attempt.started_at} and its outcome is not recorded: the carrier may have sold a label with reference ` +
    `${carrierReference(attempt, shipmentId)}. Until this is settled, purchasing answers 409 ` +
    `purchase_outcome_unknown (where the carrier can look labels up, a purchase first looks for that label and ` +
    `records it). Check the carrier account, then send the purchase again with "confirm_rebuy": true to buy a ` +
    `label anyway, or cancel the shipment (a label found at the carrier is voided).`
  );
}

/**
 * Messages a shipment carries while an attempt is in its `meta`, beside the latest operation's own. Derived when the
 * shipment is presented, so every read says so, including after a crash that left nobody to write it.
 */
export function attemptMessages(row: {
  id: string | null;
  meta: Meta;
  carrierName: string | null;
  carrierId: string | null;
}): CarrierMessage[] {
  const purchase = purchaseAttemptOf(row.meta);
  const cancel = cancelAttemptOf(row.meta);
  const messages: CarrierMessage[] = [];
  if (purchase) {
    messages.push({
      carrier_name: purchase.carrier_name,
      carrier_id: purchase.carrier_id,
      code: "purchase_outcome_unknown",
      message: purchaseOutcomeText(purchase, row.id ?? ""),
      level: "error",
      details: { started_at: purchase.started_at, settled_by: purchase.settled_by },
    });
  }
  if (cancel) {
    messages.push({
      carrier_name: row.carrierName ?? "",
      carrier_id: row.carrierId ?? "",
      code: "cancel_outcome_unknown",
      message:
        `A cancellation of this shipment was sent to the carrier at ${cancel.started_at} and its outcome is not ` +
        `recorded: the label may be voided, so it is not handed out. Cancel the shipment again to finish (a label ` +
        `the carrier already voided counts as voided).`,
      level: "error",
      details: { started_at: cancel.started_at, settled_by: cancel.settled_by },
    });
  }
  return messages;
}

/**
 * Why the shipment's label must not be handed out, or null when it may be: not once cancelled, nor while a void of it
 * may have happened. One rule for the shipment's label, the API's answers and a batch's print files.
 */
export function labelWithheld(row: { status: string; meta: Meta }): string | null {
  if (row.status === "cancelled") return "the shipment is cancelled and its label voided";
  if (cancelAttemptOf(row.meta) !== null) return "a cancellation's outcome is not recorded: the label may be voided";
  return null;
}

export const labelOnOffer = (row: { status: string; meta: Meta }) => labelWithheld(row) === null;
