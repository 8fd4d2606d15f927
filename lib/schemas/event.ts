import { z } from "zod";

/** Every event type the service emits (docs/webhooks.md, "Events"), and `ping`, sent only by the test endpoint. */
export const EVENT_TYPES = [
  "shipment.created",
  "shipment.purchased",
  "shipment.cancelled",
  "shipment.status_changed",
  "tracker.created",
  "tracker.updated",
  "tracker.delivered",
  "tracker.exception",
  "tracker.deleted",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const EventTypeSchema = z.enum(EVENT_TYPES);
