import { z } from "zod";
import { ShippingOptions } from "./options";
import { AddressInput, RatingAddressInput } from "./address";
import { CustomsInput } from "./customs";
import { ParcelInput } from "./parcel";
import { PaymentInput } from "./payment";
import { Rate, RateInput, type SelectedRateInput } from "./rate";
import { Message } from "./message";
import { Tracker } from "./tracker";
import { CarrierIds, ServiceCodes, TrackingNumber, blankIsNull, labelType, optionalText, orEmpty } from "./common";

export const ProxyRatesRequest = z
  .object({
    shipper: RatingAddressInput,
    recipient: RatingAddressInput,
    parcels: z.array(ParcelInput).min(1).max(50),
    carrier_ids: CarrierIds,
    /** Restrict to these service codes (e.g. `SBX_GROUND`). */
    services: ServiceCodes,
    options: orEmpty(ShippingOptions, () => ({})),
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
    options: orEmpty(ShippingOptions, () => ({})),
    /** The customs declaration; required when the parcel crosses a customs border (docs/api.md, "Customs"). */
    customs: CustomsInput.nullish().transform((v) => v ?? null),
    shipper: AddressInput,
    recipient: AddressInput,
    parcels: z.array(ParcelInput).min(1).max(50),
    rates: z.array(RateInput).min(1).max(200),
    payment: PaymentInput.nullish().transform((v) => v ?? null),
    reference: optionalText(100),
    /**
     * docs/api.md, "Addresses": true checks both addresses for the selected rate's carrier and service (its line
     * lengths, PO Box rule, characters) and with a connected carrier that verifies them, and refuses an invalid one
     * with 422 address_invalid before the label is bought. Absent or false: bought as sent.
     */
    validate: z
      .boolean()
      .nullish()
      .transform((v) => v ?? null),
  })
  // The selected rate is the one that must be whole enough to buy; runs even when other fields failed.
  .superRefine(
    (req, ctx) => {
      if (!Array.isArray(req.rates) || typeof req.selected_rate_id !== "string") return;
      const index = req.rates.findIndex((r) => r?.id === req.selected_rate_id);
      if (index < 0) {
        ctx.addIssue({
          code: "custom",
          path: ["selected_rate_id"],
          message: "must be the id of one of the given rates",
        });
        return;
      }
      const chosen = req.rates[index]!;
      if (!chosen.service) {
        ctx.addIssue({
          code: "custom",
          path: ["rates", index, "service"],
          message: "is required in the selected rate",
        });
      }
      if (!chosen.carrier_ref) {
        ctx.addIssue({
          code: "custom",
          path: ["rates", index, "carrier_ref"],
          message: "must be the car_ id of the connection that quoted the selected rate",
        });
      }
    },
    { when: (payload) => typeof payload.value === "object" && payload.value !== null },
  )
  .transform((req) => {
    const index = req.rates.findIndex((r) => r.id === req.selected_rate_id);
    return { ...req, selected: { index, rate: req.rates[index] as SelectedRateInput } };
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

export const TrackingQuery = z
  .object({
    carrier_id: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .optional()
      .describe("Use this connection of the carrier (carrier_id or car_ id)"),
  })
  .strict();
