import { z } from "zod";
import {
  CUSTOMS_CONTENT_TYPES,
  DUTY_PAYERS,
  INCOTERMS,
  NON_DELIVERY_OPTIONS,
  TAX_REGISTRATION_TYPES,
  WEIGHT_UNITS,
  type Customs as CarrierCustoms,
} from "@/lib/carriers/types";
import { blankIsNull, boundedObject, optionalText, orEmpty, requiredText } from "./common";

/**
 * The customs declaration of an international parcel (docs/api.md, "Customs"). Field names are purplship's, so
 * 2021.7 clients that sent customs keep working; unknown keys are refused, so a misspelt field is not silently lost
 * on the way to a customs officer. Whether a parcel needs one is `crossesCustomsBorder` (lib/carriers/customs-territory.ts).
 */

const upper = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === "string" ? v.trim().toUpperCase() : v), schema);
const currency = upper(z.string().regex(/^[A-Z]{3}$/, "must be a three-letter currency code"));
const country = upper(z.string().regex(/^[A-Z]{2}$/, "must be a two-letter country code"));
const money = z.number().nonnegative().max(10_000_000);

const CommodityInput = z
  .strictObject({
    description: requiredText(200),
    quantity: z.number().int().min(1).max(100_000),
    value_amount: money,
    value_currency: currency,
    weight: z.number().positive().max(100_000),
    weight_unit: upper(z.enum(WEIGHT_UNITS)),
    net_weight: z
      .number()
      .positive()
      .max(10_000_000)
      .nullish()
      .transform((v) => v ?? null),
    gross_weight: z
      .number()
      .positive()
      .max(10_000_000)
      .nullish()
      .transform((v) => v ?? null),
    hs_code: blankIsNull(
      z
        .string()
        .transform((v) => v.replace(/[\s.]/g, ""))
        .pipe(z.string().regex(/^\d{6,10}$/, "must be a Harmonized System code of 6 to 10 digits")),
    ).transform((v) => v ?? null),
    origin_country: country,
    sku: optionalText(100),
    // purplship names kept for 2021.7 clients: accepted, not used.
    title: optionalText(200).optional(),
    parent_id: optionalText(100).optional(),
    metadata: boundedObject.nullish(),
  })
  .refine((c) => c.net_weight === null || c.gross_weight === null || c.gross_weight >= c.net_weight, {
    path: ["gross_weight"],
    message: "must be at least net_weight (gross is the goods with their packing)",
  })
  .transform(({ title: _t, parent_id: _p, metadata: _m, ...c }) => c)
  .meta({ id: "CommodityInput" });

const TaxRegistrationInput = z
  .strictObject({
    type: z.preprocess((v) => (typeof v === "string" ? v.trim().toLowerCase() : v), z.enum(TAX_REGISTRATION_TYPES)),
    // Spaces are how people write numbers, not part of them; carriers take them without.
    number: requiredText(50).transform((v) => v.replace(/\s+/g, "")),
    issuing_country: blankIsNull(country).transform((v) => (v ?? null) as string | null),
  })
  .meta({ id: "TaxRegistrationInput" });

// UPS takes up to eight numbers per party (Shipping.yaml, AgentTaxIdentificationNumber_TaxIdentificationNumber).
const registrations = orEmpty(z.array(TaxRegistrationInput).max(8), () => []);

const TaxRegistrationsInput = z.strictObject({ shipper: registrations, recipient: registrations });

const DutyInput = z.strictObject({
  paid_by: blankIsNull(z.enum(DUTY_PAYERS)),
  currency: blankIsNull(currency).transform((v) => (v ?? null) as string | null),
  account_number: optionalText(50),
  declared_value: money.nullish().transform((v) => v ?? null),
  // purplship's: accepted, not used.
  bill_to: boundedObject.nullish(),
});

export const CustomsInput = z
  .strictObject({
    content_type: blankIsNull(z.enum(CUSTOMS_CONTENT_TYPES)).transform((v) => v ?? "merchandise"),
    content_description: optionalText(200),
    // purplship's default was DDU, which UPS's invoice does not take; DAP (its Incoterms 2010 successor, the buyer
    // paying duties) is in every carrier's list (UPS_TERMS_OF_SHIPMENT, FEDEX_TERMS_OF_SALE).
    incoterm: blankIsNull(upper(z.enum(INCOTERMS))).transform((v) => v ?? "DAP"),
    duty: DutyInput.nullish(),
    invoice: optionalText(35),
    invoice_date: blankIsNull(z.iso.date("must be a date as YYYY-MM-DD")).transform((v) => v ?? null),
    commercial_invoice: z
      .boolean()
      .nullish()
      .transform((v) => v ?? false),
    certify: z
      .boolean()
      .nullish()
      .transform((v) => v ?? false),
    signer: optionalText(100),
    aes: optionalText(50),
    eel_pfc: optionalText(50),
    commodities: orEmpty(z.array(CommodityInput).max(100), () => []),
    tax_registrations: orEmpty(TaxRegistrationsInput, () => ({ shipper: [], recipient: [] })),
    non_delivery: blankIsNull(
      z.preprocess((v) => (typeof v === "string" ? v.trim().toLowerCase() : v), z.enum(NON_DELIVERY_OPTIONS)),
    ).transform((v) => v ?? null),
    options: orEmpty(boundedObject, () => ({})),
  })
  // Runs even when other fields failed, so a client sees every problem in one answer; hence the defensive reads.
  .superRefine(
    (c, ctx) => {
      if (c.content_type !== "documents" && Array.isArray(c.commodities) && c.commodities.length === 0) {
        ctx.addIssue({
          code: "custom",
          path: ["commodities"],
          message: "must list at least one item unless content_type is documents",
        });
      }
      if (c.content_type === "other" && !c.content_description) {
        ctx.addIssue({
          code: "custom",
          path: ["content_description"],
          message: "is required when content_type is other",
        });
      }
      if (c.certify && !c.signer) {
        ctx.addIssue({ code: "custom", path: ["signer"], message: "is required when certify is true" });
      }
      if (c.duty?.paid_by === "third_party" && !c.duty.account_number) {
        ctx.addIssue({
          code: "custom",
          path: ["duty", "account_number"],
          message: "is required when a third party pays duties",
        });
      }
      const currencies = new Set(
        (Array.isArray(c.commodities) ? c.commodities : []).map((item) => item?.value_currency).filter(Boolean),
      );
      if (currencies.size > 1) {
        ctx.addIssue({ code: "custom", path: ["commodities"], message: "must all be valued in one currency" });
      }
    },
    { when: (payload) => typeof payload.value === "object" && payload.value !== null && !Array.isArray(payload.value) },
  )
  .transform(({ duty, ...c }): CarrierCustoms => {
    // DDP means the sender pays duties; otherwise the recipient does, unless the client said who.
    const paidBy = duty?.paid_by ?? (c.incoterm === "DDP" ? "sender" : "recipient");
    return {
      ...c,
      duty: {
        paid_by: paidBy,
        currency: duty?.currency ?? c.commodities[0]?.value_currency ?? null,
        account_number: duty?.account_number ?? null,
        declared_value: duty?.declared_value ?? null,
      },
    };
  })
  .meta({ id: "CustomsInput" });

/** How a shipment's customs are answered: as stored after validation (older shipments may hold other keys). */
export const Customs = z.record(z.string(), z.unknown()).meta({ id: "Customs" });
