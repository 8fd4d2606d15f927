import { z } from "zod";
import { LABEL_TYPES } from "@/lib/carriers/types";
import { BATCH_FIELDS } from "@/lib/schemas/batch";
import { mappingOf, type ColumnChoice } from "./batch-mapping";
import { AddressForm, type AddressValues } from "./create-label/form-schema";

/**
 * The new-batch form's values: the column chosen for each field (in BATCH_FIELDS' order: a field's name has dots,
 * which react-hook-form would read as nesting), the ship-from, how rates are picked.
 */
export interface NewBatchValues {
  columns: string[];
  shipper: AddressValues;
  rate_policy: "cheapest" | "fastest" | "fixed";
  /** `fixed`: the connection's carrier_id and the service code, as one choice (serviceChoice). */
  fixed_service: string;
  /** The price cap: rows priced above it wait for a decision; empty, no cap. */
  price_cap: string;
  price_cap_currency: string;
  label_type: (typeof LABEL_TYPES)[number];
  save_mapping: boolean;
}

const NewBatchSchema = z
  .object({
    columns: z.array(z.string()).length(BATCH_FIELDS.length),
    shipper: AddressForm,
    rate_policy: z.enum(["cheapest", "fastest", "fixed"]),
    fixed_service: z.string(),
    price_cap: z
      .string()
      .trim()
      .refine((v) => v === "" || /^\d+([.,]\d{1,2})?$/.test(v), "must be an amount such as 25 or 12.50")
      .transform((v) => (v === "" ? null : Number(v.replace(",", ".")))),
    price_cap_currency: z
      .string()
      .trim()
      .regex(/^[A-Za-z]{3}$/, "must be a three-letter currency code")
      .transform((v) => v.toUpperCase()),
    label_type: z.enum(LABEL_TYPES),
    save_mapping: z.boolean(),
  })
  .superRefine((v, ctx) => {
    if (v.rate_policy === "fixed" && !parseServiceChoice(v.fixed_service)) {
      ctx.addIssue({ code: "custom", path: ["fixed_service"], message: "choose the carrier and service" });
    }
  });
export type NewBatchOutput = z.output<typeof NewBatchSchema>;
/** Typed by the form's own values, as CreateLabelForm is (the address schema takes looser input). */
export const NewBatchForm = NewBatchSchema as z.ZodType<NewBatchOutput, NewBatchValues>;

/** A fixed service as one select's value: the connection's carrier_id and the service code. */
export function serviceChoice(carrierId: string, service: string): string {
  return JSON.stringify([carrierId, service]);
}
export function parseServiceChoice(value: string): { carrier_id: string; service: string } | null {
  try {
    const [carrierId, service] = JSON.parse(value) as unknown[];
    return typeof carrierId === "string" && typeof service === "string" && carrierId && service
      ? { carrier_id: carrierId, service }
      : null;
  } catch {
    return null;
  }
}

/** The API's rate_policy from the form's choices. */
export function ratePolicyOf(values: NewBatchOutput) {
  const fixed = values.rate_policy === "fixed" ? parseServiceChoice(values.fixed_service) : null;
  return {
    kind: values.rate_policy,
    ...(fixed ?? {}),
    ...(values.price_cap !== null
      ? { price_cap: { amount: values.price_cap, currency: values.price_cap_currency } }
      : {}),
  };
}

/** The form's columns (BATCH_FIELDS' order) as field → column, and back. */
export function choiceOf(columns: readonly string[]): ColumnChoice {
  return Object.fromEntries(BATCH_FIELDS.map((f, i) => [f, columns[i] ?? ""])) as ColumnChoice;
}
export function columnsOf(choice: ColumnChoice): string[] {
  return BATCH_FIELDS.map((f) => choice[f]);
}

/** POST /v1/batches as a form: the file as chosen (its bytes untouched, so the server can name a non-UTF-8 line) and the options. */
export function batchUpload(file: File, values: NewBatchOutput): FormData {
  const form = new FormData();
  form.append("file", file, file.name);
  form.append(
    "options",
    JSON.stringify({
      filename: file.name,
      mapping: mappingOf(choiceOf(values.columns)),
      shipper: values.shipper,
      label_type: values.label_type,
      rate_policy: ratePolicyOf(values),
    }),
  );
  return form;
}
