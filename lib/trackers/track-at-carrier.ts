import "server-only";
import type { DomainContext } from "@/lib/context";
import { hasCode, type CarrierMessage, type TrackingResult } from "@/lib/carriers/types";
import { connectionForCarrier } from "@/lib/connections/select-connections";
import { invokeConnection } from "@/lib/connections/invoke-connection";
import type { ConnectionRow } from "@/lib/connections/present";
import { CarrierFailureError } from "@/lib/errors";

/**
 * Asks the organization's connection of a carrier about one number (proxy tracking, tracker creation). A number the
 * carrier does not know is tracking_not_found; any other failure a carrier failure.
 */
export async function trackAtCarrier({
  ctx,
  carrierName,
  trackingNumber,
  carrierId,
}: {
  ctx: DomainContext;
  carrierName: string;
  trackingNumber: string;
  carrierId?: string;
}): Promise<{ connection: ConnectionRow; result: TrackingResult; messages: CarrierMessage[] }> {
  const connection = await connectionForCarrier({ ctx, carrierName, capability: "track", carrierId });
  const outcome = await invokeConnection(connection, "track", ctx.signal, (adapter, actx) =>
    adapter.track(actx, trackingNumber),
  );
  if (!outcome.ok) {
    const unknown = hasCode(outcome.messages, "tracking_not_found");
    throw new CarrierFailureError(outcome.messages, unknown ? "tracking_not_found" : "carrier_failed");
  }
  return { connection, result: outcome.data, messages: outcome.messages };
}
