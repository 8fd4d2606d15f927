import type { DomainContext } from "@/lib/context";
import { isCarrierName } from "@/lib/carriers/registry";
import { connectionForCarrier } from "@/lib/connections/select-connections";
import { invokeConnection } from "@/lib/connections/invoke-connection";
import { CarrierFailureError, CarrierNotFoundError } from "@/lib/errors";
import type { Message } from "@/lib/schemas/message";
import type { Tracker } from "@/lib/schemas/tracker";
import { presentTracker } from "./present-tracker";

/** Proxy tracking: asked of the carrier every time, nothing stored. An unknown number is a 404 with messages. */
export async function trackProxy({
  ctx,
  carrierName,
  trackingNumber,
  carrierId,
}: {
  ctx: DomainContext;
  carrierName: string;
  trackingNumber: string;
  carrierId?: string;
}): Promise<{ messages: Message[]; tracking: Tracker }> {
  if (!isCarrierName(carrierName)) throw new CarrierNotFoundError(`Unknown carrier ${carrierName}.`);
  const row = await connectionForCarrier(ctx.db, ctx.org.id, carrierName, "track", carrierId);
  const outcome = await invokeConnection(row, "track", ctx.signal, (adapter, actx) => adapter.track(actx, trackingNumber));
  if (!outcome.ok) {
    const notFound = outcome.messages.some((m) => m.code === "tracking_not_found");
    throw new CarrierFailureError(outcome.messages, { tracking: null }, notFound ? 404 : 424);
  }
  return { messages: outcome.messages, tracking: presentTracker(outcome.data, row) };
}
