import { z } from "zod";
import { AddressInput, RatingAddressInput } from "./address";
import { ParcelInput } from "./parcel";
import { PaymentInput } from "./payment";
import { Rate, RateInput } from "./rate";
import { Message } from "./message";
import { Tracker } from "./tracker";
import {
  CarrierIds,
  ServiceCodes,
  TrackingNumber,
  blankIsNull,
  boundedObject,
  labelType,
  optionalText,
  orEmpty,
} from "./common";

export const ProxyRatesRequest = z
  .object({
    shipper: RatingAddressInput,
    recipient: RatingAddressInput,
    parcels: z.array(ParcelInput).min(1).max(50),
    carrier_ids: CarrierIds,
    /** Restrict to these service codes (e.g. `SBX_GROUND`). */
    services: ServiceCodes,
    options: orEmpty(boundedObject, () => ({})),
    reference: optionalText(100),
  })
  .meta({ id: "ProxyRatesRequest" });
export type ProxyRatesRequest = z.output<typeof ProxyRatesRequest>;

export const RatesResponse = z
  .object({ messages: z.array(Message), rates: z.array(Rate) })
  .meta({ id: "RatesResponse" });

export const ProxyShippingRequest = z
  .object({
    selected_rate_id: z.string().trim().min(1).max(100),
    label_type: blankIsNull(labelType).transform((v) => v ?? "PDF"),
    options: orEmpty(boundedObject, () => ({})),
    shipper: AddressInput,
    recipient: AddressInput,
    parcels: z.array(ParcelInput).min(1).max(50),
    rates: z.array(RateInput).min(1).max(200),
    payment: PaymentInput.nullish().transform((v) => v ?? null),
    reference: optionalText(100),
  })
  .meta({ id: "ProxyShippingRequest" });
export type ProxyShippingRequest = z.output<typeof ProxyShippingRequest>;

export const TrackingResponse = z
  .object({ messages: z.array(Message), tracking: Tracker })
  .meta({ id: "TrackingResponse" });

export const TrackingParams = z.object({
  carrier_name: z.string().trim().min(1).max(50),
  tracking_number: TrackingNumber,
});

/** The same, from app/v1/trackers/[id]/[tracking_number], whose first segment is the carrier name. */
export const TrackerParams = z.preprocess(
  (p) =>
    p && typeof p === "object"
      ? {
          carrier_name: (p as { id?: unknown }).id,
          tracking_number: (p as { tracking_number?: unknown }).tracking_number,
        }
      : p,
  TrackingParams,
);

export const TrackingQuery = z.object({
  carrier_id: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .optional()
    .describe("Use this connection of the carrier (carrier_id or car_ id)"),
});
