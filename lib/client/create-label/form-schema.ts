/*
 * The create-label form's checks: zod with the API's own request schemas, which is most of the form's script, so the
 * page loads it after itself (components/shipments/create/form-checks.ts). What the page needs at once is
 * form-values.ts.
 */
import { z } from "zod";
import { DIMENSION_UNITS, LABEL_TYPES, WEIGHT_UNITS } from "@/lib/carriers/types";
import { RatingAddressInput, ShippableAddress } from "@/lib/schemas/address";
import { optionalText } from "@/lib/schemas/common";
import { ParcelInput } from "@/lib/schemas/parcel";
import { postalCodeProblem } from "./address-data";
import { needsCustoms, type CustomsValues } from "./customs-form";
import { CustomsForm, type CustomsRequestBody } from "./customs-schema";
import { ratesRequest, type AddressValues, type CreateLabelValues, type ParcelValues } from "./form-values";
import { numberFromText } from "./number-text";

/**
 * The form is checked with the API's own request schemas (RatingAddressInput, ParcelInput), plus what only a form
 * can know: the postal code's shape for the country. What rating needs is the form's rule; what buying needs on top
 * (street, city, state, phone abroad) is `buyProblems`, so a clerk can price a parcel before typing the street.
 */
export const AddressForm = RatingAddressInput.superRefine(
  (a, ctx) => {
    if (typeof a.country_code !== "string" || typeof a.postal_code !== "string") return;
    const problem = postalCodeProblem(a.country_code, a.postal_code);
    if (problem) ctx.addIssue({ code: "custom", path: ["postal_code"], message: problem });
  },
  // Also when other fields failed, so the clerk sees every problem at once (as the API reports them).
  { when: (payload) => typeof payload.value === "object" && payload.value !== null },
);

const numberText = z.string().transform(numberFromText);

const ParcelFields = z
  .object({
    // Undefined (not null) when empty, so ParcelInput says "is required" rather than "must not be null".
    weight: z.string().transform((v) => numberFromText(v) ?? undefined),
    weight_unit: z.enum(WEIGHT_UNITS),
    length: numberText,
    width: numberText,
    height: numberText,
    dimension_unit: z.enum(DIMENSION_UNITS),
  })
  // The unit select always holds a value; it is only sent with dimensions.
  .transform((p) => ({
    ...p,
    dimension_unit: p.length === null && p.width === null && p.height === null ? null : p.dimension_unit,
  }));

// ParcelInput types its preprocessed units' input as unknown, which zod's pipe cannot match with the fields' output;
// at run time it takes exactly that output.
const ParcelRequest = ParcelInput as z.ZodType<z.output<typeof ParcelInput>, z.output<typeof ParcelFields>>;
const ParcelForm = ParcelFields.pipe(ParcelRequest);

const CreateLabelSchema = z.object({
  shipper: AddressForm,
  recipient: AddressForm,
  parcels: z.array(ParcelForm).min(1).max(50),
  label_type: z.enum(LABEL_TYPES),
  reference: optionalText(100),
  // Rating needs no customs: the section is checked by `buyProblems` and sent by `shipmentRequest`.
  customs: z.custom<CustomsValues>(),
});
export type CreateLabelOutput = z.output<typeof CreateLabelSchema>;
/**
 * Typed by the form's own values: the request schemas take looser input (null, absent), which react-hook-form would
 * otherwise want the form to hold. The form's values are one case of that input.
 */
export const CreateLabelForm = CreateLabelSchema as z.ZodType<CreateLabelOutput, CreateLabelValues>;

/**
 * zod's generic messages ("Too small: expected number to be >0") in the API's words (lib/validation.ts), so a field
 * says the same whether the browser or the server found the problem. Messages a schema wrote itself win.
 */
function formIssueMessage(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined || issue.input === null) return "is required";
      if (typeof issue.input === "number" && Number.isNaN(issue.input)) return "must be a number";
      if (issue.expected === "int" && typeof issue.input === "number") return "must be a whole number";
      return undefined;
    case "too_small":
      if (issue.origin === "string") return issue.minimum === 1 ? "is required" : undefined;
      if (issue.origin === "number")
        return issue.inclusive ? `must be at least ${issue.minimum}` : `must be greater than ${issue.minimum}`;
      return undefined;
    case "too_big":
      if (issue.origin === "string") return `must be at most ${issue.maximum} characters`;
      if (issue.origin === "number") return `must be at most ${issue.maximum}`;
      return undefined;
    case "invalid_value":
      return `must be one of: ${issue.values.map(String).join(", ")}`;
    default:
      return undefined;
  }
}

export const formParseOptions = { error: formIssueMessage } as const;

/** A problem in the API's shape: a field path such as `recipient.city` or `parcels[0].weight`, and a message. */
export interface FieldProblem {
  field: string | null;
  message: string;
}

const pathText = (path: PropertyKey[]) =>
  path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("");

/**
 * What buying a label needs beyond rating (docs/api.md, "Requests"): ShippableAddress's street, city and state, a
 * phone number at both ends when the parcel crosses a border (carriers and customs call them), and the customs
 * declaration when it crosses a customs border. Checked here so a purchase never stores a draft the API would refuse
 * to buy (422 address_incomplete, 422 naming `customs`).
 */
export function buyProblems(values: CreateLabelOutput): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const abroad = values.shipper.country_code !== values.recipient.country_code;
  for (const side of ["shipper", "recipient"] as const) {
    const parsed = ShippableAddress.safeParse(values[side]);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        problems.push({ field: `${side}${pathText(issue.path)}`, message: issue.message });
      }
    }
    if (abroad && !values[side].phone_number) {
      problems.push({ field: `${side}.phone_number`, message: "is required when shipping to another country" });
    }
  }
  return [...problems, ...checkCustoms(values).problems];
}

/** The customs section as the API's `customs`, or its problems on the API's paths; null when none is needed. */
function checkCustoms(values: CreateLabelOutput): { customs: CustomsRequestBody | null; problems: FieldProblem[] } {
  if (!needsCustoms(values)) return { customs: null, problems: [] };
  const parsed = CustomsForm.safeParse(values.customs, formParseOptions);
  if (parsed.success) return { customs: parsed.data, problems: [] };
  const problems = parsed.error.issues.map((i) => ({ field: `customs${pathText(i.path)}`, message: i.message }));
  return { customs: null, problems };
}

/**
 * The `customs` a purchase sends: the declaration across a customs border, null inside one customs territory.
 * Call it once `buyProblems` found nothing; a section with problems here is a mistake of the caller.
 */
function customsRequest(values: CreateLabelOutput): CustomsRequestBody | null {
  const { customs, problems } = checkCustoms(values);
  if (problems.length > 0) throw new Error("customsRequest: the customs section has problems (see buyProblems)");
  return customs;
}

/** Body of `POST /v1/shipments` for one chosen rate: only its connection and service are asked again. */
export function shipmentRequest(values: CreateLabelOutput, rate: { carrier_ref: string; service: string }) {
  return {
    ...ratesRequest(values),
    label_type: values.label_type,
    customs: customsRequest(values),
    // The connection's car_ id rather than its carrier_id: renaming a connection between rating and buying cannot
    // send the purchase to another one.
    carrier_ids: [rate.carrier_ref],
    services: [rate.service],
    // The form checked both addresses as the clerk left them and showed what it found: buying now is "ship anyway",
    // and what the offline checks objected to is recorded as overridden (docs/api.md, "Addresses").
    validate: false,
  };
}
export type ShipmentRequest = ReturnType<typeof shipmentRequest>;

export type { AddressValues, CreateLabelValues, ParcelValues };
