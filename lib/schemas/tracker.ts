import { z } from "zod";
import { TRACKER_STATUSES } from "@/lib/carriers/types";
import { Timestamp, TrackingNumber } from "./common";
import { PageQuery, pageOf } from "./pagination";
import { CarrierIdFilter, boolQuery } from "./params";
import { instant } from "./instant";
import { statusFilter } from "./status-filter";

/** The status as answered (other API versions rename it: lib/versions.ts). */
export const TrackerStatusSchema = z.enum(TRACKER_STATUSES);
export const TrackerStatusFilter = statusFilter(TRACKER_STATUSES);

const TrackingEvent = z
  .object({
    date: z.string(),
    time: z.string().nullable(),
    description: z.string(),
    location: z.string(),
    code: z.string(),
    status: TrackerStatusSchema,
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
    status: TrackerStatusSchema,
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
  status: TrackerStatusFilter.optional().describe("Only trackers in one of these statuses (comma-separated)"),
  carrier_name: z.string().trim().min(1).max(50).optional().describe("Only this carrier"),
  carrier_id: CarrierIdFilter.optional().describe("Only trackers of this connection (its carrier_id or car_ id)"),
  tracking_number: TrackingNumber.optional().describe("Exact tracking number"),
  delivered: boolQuery.optional().describe("Only delivered (true) or undelivered (false) trackers"),
  test_mode: boolQuery.optional().describe("Only test (true) or live (false) trackers"),
  created_after: instant.optional().describe("ISO 8601 date or timestamp (inclusive)"),
  created_before: instant.optional().describe("ISO 8601 date or timestamp (exclusive)"),
}).strict();
export type TrackerListQuery = z.output<typeof TrackerListQuery>;

const TRACKER_ID = /^trk_[0-9a-f]{32}$/;

/** A tracker named by its trk_ id or by its tracking number (docs/api.md, "Managed mode: trackers"). */
export type TrackerRef = { trackerId: string } | { trackingNumber: string };

export const TrackerRefParams = z.object({
  id: z.union([
    z
      .string()
      .regex(TRACKER_ID)
      .transform((trackerId): TrackerRef => ({ trackerId })),
    TrackingNumber.transform((trackingNumber): TrackerRef => ({ trackingNumber })),
  ]),
});

/** A tracker's public page, for anyone with the link: `path` on this site (docs/api.md, "Public tracking pages"). */
export const TrackerShare = z
  .object({
    public_id: z.string().describe("128 random bits as hex; not the trk_ id"),
    path: z.string().describe("/track/{public_id}"),
  })
  .meta({ id: "TrackerShare" });
export type TrackerShare = z.output<typeof TrackerShare>;
