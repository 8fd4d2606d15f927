import { z } from "zod";

export const idParam = (prefix: string) =>
  z.object({ id: z.string().regex(new RegExp(`^${prefix}[0-9a-f]{32}$`), `must be a ${prefix} id`) });

export const boolQuery = z.enum(["true", "false"]).transform((v) => v === "true");

/** A connection as a filter: its `carrier_id` (the friendly name) or its `car_` id. */
export const CarrierIdFilter = z.string().trim().min(1).max(64);
