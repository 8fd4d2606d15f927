import { z } from "zod";
import { Timestamp } from "./common";
import { instant } from "./instant";
import { PageQuery, pageOf } from "./pagination";
import { boolQuery } from "./params";
import { Shipment } from "./shipment";
import { Batch } from "./batch";
import { statusFilter } from "./status-filter";
import { StoredTracker } from "./tracker";

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
  "batch.completed",
  "batch.completed_with_errors",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

type ShipmentEventType = Extract<EventType, `shipment.${string}`>;
type TrackerEventType = Extract<EventType, `tracker.${string}`>;
type BatchEventType = Extract<EventType, `batch.${string}`>;
const SHIPMENT_EVENT_TYPES = EVENT_TYPES.filter((t): t is ShipmentEventType => t.startsWith("shipment.")) as [
  ShipmentEventType,
  ...ShipmentEventType[],
];
const TRACKER_EVENT_TYPES = EVENT_TYPES.filter((t): t is TrackerEventType => t.startsWith("tracker.")) as [
  TrackerEventType,
  ...TrackerEventType[],
];

const BATCH_EVENT_TYPES = EVENT_TYPES.filter((t): t is BatchEventType => t.startsWith("batch.")) as [
  BatchEventType,
  ...BatchEventType[],
];

const eventOf = <T extends z.ZodType>(types: z.ZodEnum, data: T, id: string) =>
  z
    .object({
      id: z.string(),
      type: types,
      created_at: Timestamp,
      /** Events of test-mode resources go to test-mode endpoints only. */
      test_mode: z.boolean(),
      /** The resource as the API presented it at the moment of the change, in the reader's API version. */
      data,
    })
    .meta({ id });

/**
 * An event (docs/api.md, "Webhooks and events"). A union on `type`, so that an older API version finds the statuses
 * inside `data` (lib/versions.ts walks the option the type names) and clients know which resource `data` is.
 */
export const Event = z
  .discriminatedUnion("type", [
    eventOf(z.enum(SHIPMENT_EVENT_TYPES), Shipment, "ShipmentEvent"),
    eventOf(z.enum(TRACKER_EVENT_TYPES), StoredTracker, "TrackerEvent"),
    eventOf(z.enum(BATCH_EVENT_TYPES), Batch, "BatchEvent"),
  ])
  .meta({ id: "Event" });
export type Event = z.output<typeof Event>;

export const EventList = pageOf(Event, "EventList");

export const EventListQuery = PageQuery.extend({
  type: statusFilter(EVENT_TYPES).optional().describe("Only events of these types (comma-separated)"),
  resource_id: z.string().trim().min(1).max(64).optional().describe("Only events about this shipment or tracker"),
  test_mode: boolQuery.optional().describe("Only test (true) or live (false) events"),
  created_after: instant.optional().describe("ISO 8601 date or timestamp (inclusive)"),
  created_before: instant.optional().describe("ISO 8601 date or timestamp (exclusive)"),
}).strict();
export type EventListQuery = z.output<typeof EventListQuery>;
