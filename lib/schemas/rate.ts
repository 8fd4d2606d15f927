import { z } from "zod";

const ExtraCharge = z.object({ name: z.string(), amount: z.number(), currency: z.string() });

const RateMeta = z
  .object({
    service_name: z.string(),
    rate_provider: z.string(),
    carrier_connection_id: z.string(),
    estimated_delivery: z.string().nullable().optional(),
  })
  .catchall(z.unknown());

export const Rate = z
  .object({
    id: z.string(),
    carrier_name: z.string(),
    carrier_id: z.string(),
    currency: z.string(),
    service: z.string(),
    discount: z.number(),
    base_charge: z.number(),
    total_charge: z.number(),
    duties_and_taxes: z.number(),
    transit_days: z.number().int(),
    extra_charges: z.array(ExtraCharge),
    meta: RateMeta,
    carrier_ref: z.string(),
    test_mode: z.boolean(),
  })
  .meta({ id: "Rate" });
export type Rate = z.output<typeof Rate>;

/**
 * A rate sent back by a client (proxy shipping), as we returned it. The charges shown on the resulting shipment
 * come from the carrier's answer when it gives one.
 */
export const RateInput = z
  .object({
    id: z.string().min(1),
    carrier_name: z.string().min(1),
    carrier_id: z.string().min(1),
    carrier_ref: z.string().regex(/^car_[0-9a-f]{32}$/, "must be a car_ connection id"),
    service: z.string().min(1),
    currency: z.string().min(3).max(3),
    total_charge: z.number(),
    discount: z.number().default(0),
    base_charge: z.number(),
    duties_and_taxes: z.number().default(0),
    transit_days: z.number().int().min(0),
    extra_charges: z.array(ExtraCharge).default([]),
    meta: z.record(z.string(), z.unknown()).default({}),
    test_mode: z.boolean().default(false),
  })
  .meta({ id: "RateInput" });
export type RateInput = z.output<typeof RateInput>;
