import "server-only";
import { newId } from "@/lib/db/ids";
import type { DomainContext } from "@/lib/context";
import { isCarrierName } from "@/lib/carriers/names";
import { CarrierNotFoundError } from "@/lib/errors";
import type { Message } from "@/lib/schemas/message";
import type { Tracker } from "@/lib/schemas/tracker";
import { eventsNewestFirst, presentTracker } from "./present-tracker";
import { trackAtCarrier } from "./track-at-carrier";
import { eventFields, mergedStatus } from "./tracking-rules";
import { excerpt } from "@/lib/validation";

/** Proxy tracking: asked of the carrier every time, nothing stored. An unknown number is tracking_not_found. */
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
  if (!isCarrierName(carrierName)) throw new CarrierNotFoundError(`Unknown carrier ${excerpt(carrierName)}.`);
  const { connection, result, messages } = await trackAtCarrier({ ctx, carrierName, trackingNumber, carrierId });
  const events = result.events.map(eventFields);
  // The newest event as the tracker will show it.
  const newest = eventsNewestFirst(events)[0];
  const tracker = {
    // Fresh, as the 2021.7 server minted one; nothing is stored, so the id cannot be retrieved (docs/api.md, "Proxy mode").
    id: newId("tracker"),
    carrierName: connection.carrierName,
    carrierId: connection.carrierId,
    trackingNumber: result.tracking_number,
    // As a tracker created from the same answer reads it: a carrier that cannot name the overall status (`unknown`)
    // beside events it can is at its newest event's status (tracking-rules.ts, mergedStatus).
    status: mergedStatus(result.status, newest?.status ?? null, null),
    testMode: connection.testMode,
    estimatedDelivery: result.estimated_delivery,
  };
  return { messages, tracking: presentTracker(tracker, events) };
}
