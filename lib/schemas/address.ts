import { z } from "zod";
import { blankIsNull, blankText, boundedObject, optionalText, requiredText, stateCode } from "./common";

const countryCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{2}$/, "must be a two-letter country code")
  .transform((v) => v.toUpperCase());

// States and provinces are required where carriers need them to deliver.
const STATE_REQUIRED = new Set(["US", "CA", "AU"]);

/** Runs even when other fields failed (hence the defensive reads), so one answer lists every problem. */
const requireState = [
  (a: { country_code?: unknown; state_code?: unknown }, ctx: z.RefinementCtx) => {
    if (typeof a.country_code === "string" && STATE_REQUIRED.has(a.country_code) && !a.state_code) {
      ctx.addIssue({ code: "custom", path: ["state_code"], message: `is required for ${a.country_code} addresses` });
    }
  },
  { when: (payload: { value: unknown }) => typeof payload.value === "object" && payload.value !== null },
] as const;

const addressFields = {
  postal_code: requiredText(20),
  country_code: countryCode,
  state_code: stateCode,
  address_line2: optionalText(200),
  person_name: optionalText(200),
  company_name: optionalText(200),
  email: blankIsNull(z.email("must be an email address").max(254)).transform((v) => v ?? null),
  phone_number: optionalText(50),
  federal_tax_id: optionalText(50),
  state_tax_id: optionalText(50),
  suburb: optionalText(100),
  // docs/api.md, "Requests" (not given): null, as a 2021.7 client sends an unset field, is false like leaving it out.
  residential: z
    .boolean()
    .nullish()
    .transform((v) => v ?? false),
  validate_location: z
    .boolean()
    .nullish()
    .transform((v) => v ?? null),
  validation: boundedObject.nullish().transform((v) => v ?? null),
};

/** An address a label is bought for (proxy shipping): every line a carrier prints. */
export const AddressInput = z
  .object({ ...addressFields, city: requiredText(100), address_line1: requiredText(200) })
  .superRefine(...requireState)
  .meta({ id: "AddressInput" });
export type AddressInput = z.output<typeof AddressInput>;

/**
 * docs/api.md, "Requests": an address to rate (proxy rates, a new shipment) needs its country and postal code;
 * `city` and `address_line1` are `""` when not given, and buying the label needs them (ShippableAddress).
 */
export const RatingAddressInput = z
  .object({ ...addressFields, city: blankText(100), address_line1: blankText(200) })
  .meta({ id: "RatingAddressInput" });

const neededToBuy = z.string().trim().min(1, "is required to buy a label");

/** What a stored address must have before its label is bought: AddressInput's rules beyond rating. */
export const ShippableAddress = z
  .object({ country_code: z.string(), state_code: z.string(), city: neededToBuy, address_line1: neededToBuy })
  .superRefine(...requireState);

export const Address = z
  .object({
    id: z.string().nullable(),
    postal_code: z.string(),
    city: z.string().describe('"" when the address was given only to rate'),
    federal_tax_id: z.string().nullable(),
    state_tax_id: z.string().nullable(),
    person_name: z.string().nullable(),
    company_name: z.string().nullable(),
    country_code: z.string(),
    email: z.string().nullable(),
    phone_number: z.string().nullable(),
    state_code: z.string(),
    suburb: z.string().nullable(),
    residential: z.boolean(),
    address_line1: z.string().describe('"" when the address was given only to rate'),
    address_line2: z.string().nullable(),
    validate_location: z.boolean().nullable(),
    validation: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: "Address" });
export type Address = z.output<typeof Address>;
