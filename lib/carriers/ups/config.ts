import { z } from "zod";
import { cutoffTimeSchema, DEFAULT_CUTOFF } from "@/lib/carriers/ship-date";

/**
 * Connection `config` keys of UPS (the layer's common keys, deadline_ms and the refresh budget, are checked
 * elsewhere).
 *
 * | key                | default | meaning |
 * |--------------------|---------|---------|
 * | `negotiated_rates` | true    | ask UPS for the account's negotiated rates and quote them when UPS returns them |
 * | `cutoff_time`      | "17:00" | the daily cut-off at the origin (local `HH:MM`): later, or on a weekend, parcels leave the next business day |
 */
const shape = {
  negotiated_rates: z.boolean().optional(),
  cutoff_time: cutoffTimeSchema.optional(),
};

/** Refuses unknown keys, so a misspelt setting is not silently ignored. */
export const upsConfigSchema = z.strictObject(shape);

export interface UpsConfig {
  negotiatedRates: boolean;
  cutoffTime: string;
}

/** The connection's settings with defaults; a value of the wrong type (edited behind the API) is the default. */
export function readUpsConfig(raw: Record<string, unknown>): UpsConfig {
  const parsed = z.object(shape).safeParse(raw);
  return {
    negotiatedRates: (parsed.success ? parsed.data.negotiated_rates : undefined) ?? true,
    cutoffTime: (parsed.success ? parsed.data.cutoff_time : undefined) ?? DEFAULT_CUTOFF,
  };
}
