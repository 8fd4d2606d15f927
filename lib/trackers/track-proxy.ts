import type { DomainContext } from "@/lib/context";
import { isCarrierName } from "@/lib/carriers/registry";
import { CarrierNotFoundError } from "@/lib/errors";
import type { Message } from "@/lib/schemas/message";
import type { Tracker } from "@/lib/schemas/tracker";
import { presentTracker } from "./present-tracker";
import { trackAtCarrier } from "./track-at-carrier";

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
  const { connection, result, messages } = await trackAtCarrier({
    ctx,
    carrierName,
    trackingNumber,
    carrierId,
    extra: { tracking: null },
  });
  return { messages, tracking: presentTracker(result, connection) };
}
