import { z } from "zod";
import { bounded } from "./common";

/**
 * A shipment's and a rate request's `options` (docs/api.md, "Options"): the options every carrier maps typed here,
 * everything else kept as given. Values are checked but never rewritten, so a shipment echoes its options as the
 * client sent them (a purplship 2021.7 `signature_confirmation: true` stays `true`); readShippingOptions gives the
 * carriers one reading of them.
 *
 * Keys outside this list are accepted, stored and reported by the carrier that does not use them (a warning naming
 * the key), never refused: purplship-era integrations send keys of their own (`email_notification`,
 * `shipment_date`, …) and a 400 would stop them buying labels for an option no carrier of theirs would have honoured.
 */

const SIGNATURE_CONFIRMATIONS = ["none", "standard", "adult"] as const;
type SignatureConfirmation = (typeof SIGNATURE_CONFIRMATIONS)[number];

/**
 * An amount: a number from 0, or numeric text (purplship clients sent `"100.00"`); 0 and blank text are "none", as
 * the carriers read them before options were typed, so no client that sent them is refused now.
 */
const amountText = z.union([
  z.number().min(0).max(10_000_000),
  z
    .string()
    .regex(/^\s*(\d+(\.\d+)?)?\s*$/, "must be a number")
    .refine((v) => Number(v) <= 10_000_000, "must be at most 10000000"),
]);
/** Three letters; blank is "none", as before options were typed. */
const currency = z.string().regex(/^\s*([A-Za-z]{3})?\s*$/, "must be a 3-letter currency code");

/** Checks only, no transforms (not even trimming): what the API validates and stores as given. */
const checked = {
  /** `true` (purplship) is `standard`, `false` is `none`. */
  signature_confirmation: z.union([z.boolean(), z.enum(SIGNATURE_CONFIRMATIONS)]).nullish(),
  /** The goods' value: customs and rating where a carrier needs one; not insurance. */
  declared_value: amountText.nullish(),
  currency: currency.nullish(),
  /** The carrier's declared value for carriage (its liability), per shipment: an amount, or with its currency. */
  insurance: z.union([amountText, z.object({ amount: amountText, currency: currency.nullish() })]).nullish(),
  saturday_delivery: z.boolean().nullish(),
  fedex_one_rate: z.boolean().nullish(),
};

export const TYPED_OPTION_KEYS = Object.keys(checked) as (keyof typeof checked)[];

export const ShippingOptions = bounded(z.object(checked).catchall(z.unknown()))
  .describe(
    "Typed options (signature_confirmation, declared_value, currency, insurance, saturday_delivery, " +
      "fedex_one_rate) and any other key, stored as given; a carrier that does not honour one says so in `messages`.",
  )
  .meta({ id: "ShippingOptions" });

interface ShippingOptionValues {
  signature: SignatureConfirmation;
  /** Split over the parcels by each adapter; currency null when the client named none. */
  insurance: { amount: number; currency: string | null } | null;
  saturdayDelivery: boolean;
  fedexOneRate: boolean;
}

/** The typed options as one reading; a value the API would refuse reads as not given (the API has refused it). */
export function readShippingOptions(options: Record<string, unknown>): ShippingOptionValues {
  const parsed = z.object(checked).catchall(z.unknown()).safeParse(options);
  const o = parsed.success ? parsed.data : {};
  const signature = o.signature_confirmation;
  const insurance = o.insurance;
  const currencyOf = (v: string | null | undefined) => v?.trim().toUpperCase() || null;
  const fallbackCurrency = currencyOf(o.currency);
  const amountOf = (v: string | number) => (Number(v) > 0 ? Number(v) : null);
  const insured = insurance == null ? null : amountOf(typeof insurance === "object" ? insurance.amount : insurance);
  return {
    signature: signature === true ? "standard" : signature === false || signature == null ? "none" : signature,
    insurance:
      insured === null
        ? null
        : {
            amount: insured,
            currency: (typeof insurance === "object" ? currencyOf(insurance?.currency) : null) ?? fallbackCurrency,
          },
    saturdayDelivery: o.saturday_delivery === true,
    fedexOneRate: o.fedex_one_rate === true,
  };
}
