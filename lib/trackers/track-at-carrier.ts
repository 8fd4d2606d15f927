import type { DomainContext } from "@/lib/context";
import type { TrackingResult } from "@/lib/carriers/types";
import { connectionForCarrier } from "@/lib/connections/select-connections";
import { invokeConnection } from "@/lib/connections/invoke-connection";
import type { ConnectionRow } from "@/lib/connections/present";
import { CarrierFailureError } from "@/lib/errors";
import type { Message } from "@/lib/schemas/message";

/**
 * Asks the organization's connection of a carrier about one number (proxy tracking, tracker creation). A number
 * the carrier does not know is a 404 with its messages; any other failure a 424. `extra` rides along in the
 * failure's body so each endpoint keeps its usual keys.
 */
export async function trackAtCarrier({
  ctx,
  carrierName,
  trackingNumber,
  carrierId,
  extra = {},
}: {
  ctx: DomainContext;
  carrierName: string;
  trackingNumber: string;
  carrierId?: string;
  extra?: Record<string, unknown>;
}): Promise<{ connection: ConnectionRow; result: TrackingResult; messages: Message[] }> {
  const connection = await connectionForCarrier(ctx.db, ctx.org.id, carrierName, "track", carrierId);
  const outcome = await invokeConnection(connection, "track", ctx.signal, (adapter, actx) =>
    adapter.track(actx, trackingNumber),
  );
  if (!outcome.ok) {
    const notFound = outcome.messages.some((m) => m.code === "tracking_not_found");
    throw new CarrierFailureError(outcome.messages, extra, notFound ? 404 : 424);
  }
  return { connection, result: outcome.data, messages: outcome.messages };
}
