import { z } from "zod";
import { TRACKER_STATUSES } from "@/lib/carriers/types";
import { Timestamp, TrackingNumber } from "./common";
import { PageQuery, pageOf } from "./pagination";
import { boolQuery } from "./params";

const TrackingEvent = z
  .object({
    date: z.string(),
    time: z.string().nullable(),
    description: z.string(),
    location: z.string(),
    code: z.string(),
    status: z.enum(TRACKER_STATUSES),
  })
  .meta({ id: "TrackingEvent" });
type TrackingEvent = z.output<typeof TrackingEvent>;

export const Tracker = z
  .object({
    id: z.string().nullable(),
    carrier_name: z.string(),
    carrier_id: z.string(),
    tracking_number: z.string(),
    events: z.array(TrackingEvent),
    delivered: z.boolean(),
    test_mode: z.boolean(),
    status: z.enum(TRACKER_STATUSES),
    estimated_delivery: z.string().nullable(),
  })
  .meta({ id: "Tracker" });
export type Tracker = z.output<typeof Tracker>;

/** A tracker the organization keeps: the Tracker plus what the service knows about keeping it fresh. */
export const StoredTracker = Tracker.extend({
  id: z.string(),
  shipment_id: z.string().nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
  refreshed_at: Timestamp.nullable(),
  /** Null when the tracker is final or retired: it is not refreshed any more. */
  next_refresh_at: Timestamp.nullable(),
}).meta({ id: "StoredTracker" });
export type StoredTracker = z.output<typeof StoredTracker>;

export const TrackerList = pageOf(StoredTracker, "TrackerList");

export const TrackerListQuery = PageQuery.extend({
  status: z.enum(TRACKER_STATUSES).optional().describe("Only trackers in this status"),
  carrier_name: z.string().trim().min(1).max(50).optional().describe("Only this carrier"),
  tracking_number: TrackingNumber.optional().describe("Exact tracking number"),
  delivered: boolQuery.optional().describe("Only delivered (true) or undelivered (false) trackers"),
});
export type TrackerListQuery = z.output<typeof TrackerListQuery>;
