import { z } from "zod";
import { TRACKER_STATUSES } from "@/lib/carriers/types";

export const TrackingEvent = z
  .object({
    date: z.string(),
    time: z.string().nullable(),
    description: z.string(),
    location: z.string(),
    code: z.string(),
    status: z.enum(TRACKER_STATUSES),
  })
  .meta({ id: "TrackingEvent" });
export type TrackingEvent = z.output<typeof TrackingEvent>;

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
