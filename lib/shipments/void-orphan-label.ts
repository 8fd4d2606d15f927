import "server-only";
import type { DomainContext } from "@/lib/context";
import { getAdapter } from "@/lib/carriers/registry";
import type { ShipResult } from "@/lib/carriers/types";
import { invokeConnection } from "@/lib/connections/invoke-connection";
import type { ConnectionRow } from "@/lib/connections/present";
import { ClaimLostError, releaseClaim, type Claim } from "./claim";

/**
 * Step 4 of a purchase: the label was bought but could not be recorded, so it must not stay alive at the carrier.
 * Void it; when that works the claim is released and the attempt removed (`meta`: nothing is left at the carrier;
 * best effort: the database may still be away, and the claim expires by itself). When it does not, the label is
 * logged as an orphan with what an operator needs to void it, and the attempt stays in the shipment's `meta`: the
 * next purchase finds the label by reference (where the carrier can look it up) instead of buying another.
 */
export async function voidOrphanLabel({
  ctx,
  connection,
  shipped,
  claim,
  cause,
  meta,
}: {
  ctx: DomainContext;
  connection: ConnectionRow;
  shipped: ShipResult;
  claim: Claim;
  cause: unknown;
  meta: Record<string, unknown>;
}): Promise<void> {
  const facts = {
    shipment_id: claim.shipmentId,
    connection_id: connection.id,
    carrier_name: connection.carrierName,
    tracking_number: shipped.tracking_number,
    shipment_identifier: shipped.shipment_identifier,
    cause: cause instanceof ClaimLostError ? "claim_lost" : "not_recorded",
    err: cause,
  };
  const outcome = getAdapter(connection.carrierName)?.void
    ? await invokeConnection(
        connection,
        "void",
        undefined,
        (a, actx) =>
          a.void!(actx, { tracking_number: shipped.tracking_number, shipment_identifier: shipped.shipment_identifier }),
        { books: ctx.db },
      )
    : null;
  if (!outcome?.ok) {
    ctx.log.error({
      msg: "orphan label: bought but neither recorded nor voided; void it in the carrier account",
      ...facts,
      codes: outcome?.messages.map((m) => m.code) ?? ["not_supported"],
    });
    return;
  }
  ctx.log.warn({ msg: "label voided because its purchase could not be recorded", ...facts });
  if (!(cause instanceof ClaimLostError)) await releaseClaim(ctx.db, claim, { meta }).catch(() => undefined);
}
