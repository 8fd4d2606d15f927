import { z } from "zod";
import { cutoffTimeSchema, DEFAULT_CUTOFF } from "@/lib/carriers/ship-date";

/**
 * Connection `config` keys of USPS (the layer's common keys, deadline_ms and the refresh budget, are checked
 * elsewhere; `refresh_requests_per_minute` raises the tracking budget once USPS raises the app's hourly quota).
 *
 * | key                  | default        | meaning |
 * |----------------------|----------------|---------|
 * | `price_type`         | "COMMERCIAL"   | the prices asked for: RETAIL (counter), COMMERCIAL (the account's), CONTRACT (a negotiated agreement) |
 * | `cutoff_time`        | "17:00"        | the daily cut-off at the origin (local `HH:MM`): later, or on a weekend, the mailing date is the next business day |
 * | `refund_review_days` | 30             | days after a disputed cancellation without any scan of the label before its refund is taken as granted (docs/usps.md, "Refunds") |
 */
const USPS_PRICE_TYPES = ["RETAIL", "COMMERCIAL", "CONTRACT"] as const;
type PriceType = (typeof USPS_PRICE_TYPES)[number];

/**
 * USPS publishes no period in its v3 files for deciding a label refund; 30 days is our default, not USPS's: the
 * connection can set its own (docs/usps.md).
 */
const DEFAULT_REFUND_REVIEW_DAYS = 30;

const shape = {
  price_type: z.enum(USPS_PRICE_TYPES).meta({ title: "Price type" }).optional(),
  cutoff_time: cutoffTimeSchema.optional(),
  refund_review_days: z.number().int().min(1).max(365).meta({ title: "Refund review (days)" }).optional(),
};

/** Refuses unknown keys, so a misspelt setting is not silently ignored. */
export const uspsConfigSchema = z.strictObject(shape);

export interface UspsConfig {
  priceType: PriceType;
  cutoffTime: string;
  refundReviewDays: number;
}

/** The connection's settings with defaults; a value of the wrong type (edited behind the API) is the default. */
export function readUspsConfig(raw: Record<string, unknown>): UspsConfig {
  const parsed = z.object(shape).safeParse(raw);
  const data = parsed.success ? parsed.data : {};
  return {
    priceType: data.price_type ?? "COMMERCIAL",
    cutoffTime: data.cutoff_time ?? DEFAULT_CUTOFF,
    refundReviewDays: data.refund_review_days ?? DEFAULT_REFUND_REVIEW_DAYS,
  };
}
