import { z } from "zod";
import { CUSTOMS_CONTENT_TYPES, DUTY_PAYERS, INCOTERMS, WEIGHT_UNITS } from "@/lib/carriers/types";
import { CustomsInput } from "@/lib/schemas/customs";
import { numberFromText } from "./number-text";

const given = (text: string) => (text.trim() === "" ? undefined : text);
// Undefined (not null) when empty, so the API's schema says "is required" rather than "must not be null".
const amount = z.string().transform((v) => numberFromText(v) ?? undefined);
const required = z.string().transform(given);

const CommodityFields = z.object({
  description: z.string(),
  quantity: amount,
  value_amount: amount,
  value_currency: required,
  weight: amount,
  weight_unit: z.enum(WEIGHT_UNITS),
  hs_code: z.string(),
  origin_country: required,
  sku: z.string(),
});

const CustomsFields = z
  .object({
    content_type: z.enum(CUSTOMS_CONTENT_TYPES),
    content_description: z.string(),
    incoterm: z.enum(INCOTERMS),
    duty: z.object({ paid_by: z.enum(DUTY_PAYERS), account_number: z.string() }),
    invoice: z.string(),
    invoice_date: z.string(),
    commercial_invoice: z.boolean(),
    certify: z.boolean(),
    signer: z.string(),
    commodities: z.array(CommodityFields),
  })
  // Hidden inputs keep what was typed (the clerk may switch back); what they hold is not part of the declaration.
  .transform(({ content_description, duty, ...c }) => ({
    ...c,
    content_description: c.content_type === "other" ? content_description : null,
    duty: { paid_by: duty.paid_by, account_number: duty.paid_by === "third_party" ? duty.account_number : null },
  }));

// CustomsInput types its preprocessed fields' input as unknown, which zod's pipe cannot match with the fields'
// output; at run time it takes exactly that output (as the parcel's ParcelRequest does).
const CustomsRequest = CustomsInput as z.ZodType<z.output<typeof CustomsInput>, z.output<typeof CustomsFields>>;

/**
 * The section checked with the API's own CustomsInput, its problems on the API's paths (`commodities[0].hs_code`)
 * and its output the API's `customs`: commodities with numbers, codes upper-cased, the duty payer said.
 */
export const CustomsForm = CustomsFields.pipe(CustomsRequest);
export type CustomsRequestBody = z.output<typeof CustomsForm>;
