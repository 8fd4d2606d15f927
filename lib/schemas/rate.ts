import { z } from "zod";
import { boundedObject } from "./common";

const CONNECTION_ID = /^car_[0-9a-f]{32}$/;

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

/** A field of a rate sent back: kept when it has the right type and size, else left out rather than refused. */
const kept = <T extends z.ZodType>(schema: T) => schema.nullish().catch(undefined);

/**
 * A rate sent back by a client (proxy shipping), as our rates answer returned it or trimmed (docs/api.md, "Proxy
 * mode"). Only the selected rate must name its `service` and `carrier_ref` (ProxyShippingRequest checks it); the
 * others are the client's own copy, echoed back, so a partial or odd one is kept as far as it is readable. Every
 * field is bounded all the same. The charges shown on the resulting shipment come from the carrier when it gives them.
 */
export const RateInput = z
  .object({
    id: kept(z.string().max(100)),
    carrier_name: kept(z.string().max(50)),
    carrier_id: kept(z.string().max(64)),
    carrier_ref: kept(z.string().regex(CONNECTION_ID)),
    service: kept(z.string().trim().min(1).max(100)),
    currency: kept(z.string().length(3)),
    total_charge: kept(z.number()),
    discount: kept(z.number()),
    base_charge: kept(z.number()),
    duties_and_taxes: kept(z.number()),
    transit_days: kept(z.number().int().min(0).max(1000)),
    extra_charges: kept(
      z.array(z.object({ name: z.string().max(100), amount: z.number(), currency: z.string().max(3) })).max(50),
    ),
    meta: kept(boundedObject),
    test_mode: kept(z.boolean()),
  })
  .meta({ id: "RateInput" });
export type RateInput = z.output<typeof RateInput>;

/** The rate a proxy purchase buys: what ProxyShippingRequest made sure it has. */
export type SelectedRateInput = RateInput & { id: string; service: string; carrier_ref: string };
