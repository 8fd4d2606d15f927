import "server-only";
import type { DomainContext } from "@/lib/context";
import { getAdapter } from "@/lib/carriers/registry";
import type { CarrierMessage, FoundShipment } from "@/lib/carriers/types";
import { orgConnection } from "@/lib/connections/select-connections";
import { invokeConnection, pacedAgain } from "@/lib/connections/invoke-connection";
import type { ConnectionRow } from "@/lib/connections/present";
import { carrierReference, instantOf, type PurchaseAttempt } from "./outcome-unknown";

/**
 * Asking the carrier what became of a purchase whose answer was lost: the labels it sold under the attempt's
 * reference since the attempt started. Only a carrier that declares "lookup" (its own records answer) is asked.
 */

/** Our clock and the carrier's differ a little; a sale a few minutes "before" the attempt may still be its. */
const CLOCK_SKEW_MS = 5 * 60 * 1000;

export type LookupVerdict =
  /** The carrier sold the label: it can be recorded, or voided. */
  | { kind: "found"; labels: [FoundShipment, ...FoundShipment[]]; connection: ConnectionRow }
  /** Nothing sold, and the attempt is certainly over at the carrier: it never got there. */
  | { kind: "none" }
  /**
   * No way to tell; `reason` completes "…, and" in the messages that say so. `until`: only too early to tell, the
   * carrier may still be handling the request until then.
   */
  | { kind: "unknown"; reason: string; messages: CarrierMessage[]; until?: string };

export async function lookUpAttempt(
  ctx: DomainContext,
  shipmentId: string,
  attempt: PurchaseAttempt | null,
  now = new Date(),
): Promise<LookupVerdict> {
  const unknown = (reason: string, messages: CarrierMessage[] = []) => ({
    kind: "unknown" as const,
    reason,
    messages,
  });
  // A claim that expired without an attempt in `meta` was written before attempts were recorded.
  if (!attempt) return unknown("the attempt's details were not recorded");
  const connection = await orgConnection({ ctx, id: attempt.carrier_connection_id });
  if (!connection) return unknown(`its carrier connection ${attempt.carrier_connection_id} no longer exists`);
  if (!getAdapter(connection.carrierName)?.findShipments) {
    return unknown(`${attempt.carrier_name} cannot look labels up by reference`);
  }
  const reference = carrierReference(attempt, shipmentId);
  // A call to the carrier like any other: a batch's budget counts it (docs/api.md, "Batches").
  await ctx.paceCarrier?.(connection);
  const outcome = await invokeConnection(
    connection,
    "lookup",
    undefined,
    (a, actx) =>
      a.findShipments!(actx, {
        reference,
        sold_since: new Date(instantOf(attempt.started_at).getTime() - CLOCK_SKEW_MS),
      }),
    { books: ctx.db, pace: pacedAgain(ctx, connection) },
  );
  if (!outcome.ok) {
    return unknown(`looking it up failed (${outcome.messages[0]?.message ?? "no answer"})`, outcome.messages);
  }
  // A client reference may be shared by several shipments (an order re-created, one order in two parcels): a label
  // is this shipment's only when the carrier kept this shipment's key with it. Recording or voiding another
  // shipment's label would print the wrong address on a parcel, or void a label someone is about to use.
  const sold = outcome.data;
  const ours = sold.filter((s) => s.shipment_key === shipmentId);
  if (ours.length > 0) return { kind: "found", labels: ours as [FoundShipment, ...FoundShipment[]], connection };
  if (sold.some((s) => s.shipment_key === null)) {
    return unknown(
      `${attempt.carrier_name}'s records under reference ${reference} do not say which shipment a label was for`,
    );
  }
  // Before the attempt's deadline the carrier may still be working on the request that lost its answer.
  if (now <= instantOf(attempt.settled_by)) {
    return {
      ...unknown(
        `${attempt.carrier_name} has no label with reference ${reference} yet but may still be handling the request until ${attempt.settled_by}`,
      ),
      until: attempt.settled_by,
    };
  }
  return { kind: "none" };
}
