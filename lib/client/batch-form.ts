import { z } from "zod";
import { LABEL_TYPES, WEIGHT_UNITS } from "@/lib/carriers/types";
import { BATCH_FIELDS } from "@/lib/schemas/batch";
import { mappingOf, prefillMapping, type ColumnChoice } from "./batch-mapping";
import { AddressForm, type AddressValues } from "./create-label/form-schema";

/**
 * The new-batch form's values: the column chosen for each field (in BATCH_FIELDS' order: a field's name has dots,
 * which react-hook-form would read as nesting), the ship-from, how rates are picked.
 */
export interface NewBatchValues {
  columns: string[];
  shipper: AddressValues;
  rate_policy: "cheapest" | "fastest" | "fixed" | "rules";
  /** `fixed`: the connection's carrier_id and the service code, as one choice (serviceChoice). */
  fixed_service: string;
  /** `rules`: tried in order; the first whose conditions all match a row picks its rate. */
  rules: RuleValues[];
  /** `rules`: the pick of a row no rule matches (a PICKS value or a serviceChoice). */
  fallback: string;
  /** The price cap: rows priced above it wait for a decision; empty, no cap. */
  price_cap: string;
  price_cap_currency: string;
  label_type: (typeof LABEL_TYPES)[number];
  save_mapping: boolean;
}

/**
 * One rule as typed: a condition is given when any of its fields is (the weight by either bound, the destination by
 * its country, the value by either bound), and `pick` is "cheapest", "fastest" or a serviceChoice.
 */
export interface RuleValues {
  weight_min: string;
  weight_max: string;
  weight_unit: (typeof WEIGHT_UNITS)[number];
  country_code: string;
  state_code: string;
  postal_prefix: string;
  value_min: string;
  value_max: string;
  value_currency: string;
  pick: string;
}

/** A rule to fill in, its value range in `currency` (the form's cap currency; USD while that is empty). */
export const blankRule = (currency?: string): RuleValues => ({
  weight_min: "",
  weight_max: "",
  weight_unit: "KG",
  country_code: "",
  state_code: "",
  postal_prefix: "",
  value_min: "",
  value_max: "",
  value_currency: currency || "USD",
  pick: "cheapest",
});

const amountPattern = /^\d+([.,]\d+)?$/;
/** A bound as typed ("" for none, a decimal comma allowed), as the API's number. */
const bound = (v: string): number | null => (v.trim() === "" ? null : Number(v.trim().replace(",", ".")));

/**
 * The rules' checks, the API's own (lib/schemas/batch.ts, RateRule) placed on the fields that hold them, so a clerk
 * sees each under its field before anything is sent. Runs whatever else in the form is wrong (`when`), so the rules'
 * problems show with the rest's at the first "Check rows".
 */
function checkRules(v: Partial<Pick<NewBatchValues, "rate_policy" | "rules" | "fallback">>, ctx: z.RefinementCtx) {
  if (v.rate_policy !== "rules" || !Array.isArray(v.rules)) return;
  const problem = (path: (string | number)[], message: string) => ctx.addIssue({ code: "custom", path, message });
  if (v.rules.length === 0) problem(["rules"], "Add a rule, or choose another way to pick rates.");
  v.rules.forEach((r, i) => {
    const at = (field: string) => ["rules", i, field];
    const range = (min: string, max: string, what: string) => {
      for (const [field, text] of [
        [`${what}_min`, min],
        [`${what}_max`, max],
      ] as const) {
        if (text.trim() !== "" && !amountPattern.test(text.trim())) {
          problem(at(field), "must be a number such as 2 or 0.5");
        }
      }
      const [lo, hi] = [bound(min), bound(max)];
      if (lo !== null && hi !== null && Number.isFinite(lo) && Number.isFinite(hi) && lo > hi) {
        problem(at(`${what}_max`), "must not be below the lower bound");
      }
    };
    range(r.weight_min, r.weight_max, "weight");
    range(r.value_min, r.value_max, "value");
    const country = r.country_code.trim();
    if (country !== "" && !/^[A-Za-z]{2}$/.test(country))
      problem(at("country_code"), "must be a two-letter country code");
    if (country === "" && (r.state_code.trim() !== "" || r.postal_prefix.trim() !== "")) {
      problem(at("country_code"), "is needed for a state or a postal code");
    }
    const valued = r.value_min.trim() !== "" || r.value_max.trim() !== "";
    if (valued && !/^[A-Za-z]{3}$/.test(r.value_currency.trim())) {
      problem(at("value_currency"), "must be a three-letter currency code");
    }
    if (r.weight_min.trim() === "" && r.weight_max.trim() === "" && country === "" && !valued) {
      problem(
        at("condition"),
        "Give this rule a weight, a destination or a value: rows no rule matches take the fallback.",
      );
    }
    if (!pickOf(r.pick)) problem(at("pick"), "Choose how these rows are priced.");
  });
  if (!pickOf(v.fallback ?? "")) problem(["fallback"], "Choose how rows no rule matches are priced.");
}

const NewBatchSchema = z
  .object({
    columns: z.array(z.string()).length(BATCH_FIELDS.length),
    shipper: AddressForm,
    rate_policy: z.enum(["cheapest", "fastest", "fixed", "rules"]),
    fixed_service: z.string(),
    rules: z.array(
      z.object({
        weight_min: z.string(),
        weight_max: z.string(),
        weight_unit: z.enum(WEIGHT_UNITS),
        country_code: z.string(),
        state_code: z.string(),
        postal_prefix: z.string(),
        value_min: z.string(),
        value_max: z.string(),
        value_currency: z.string(),
        pick: z.string(),
      }),
    ),
    fallback: z.string(),
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
  })
  .superRefine(checkRules, { when: () => true });
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

/** How a rule (or the fallback) prices its rows: the PICKS kinds, or a fixed service as a serviceChoice. */
export const PICKS = [
  { value: "cheapest", label: "Cheapest rate" },
  { value: "fastest", label: "Fastest rate" },
] as const;

/** A rule's pick select's value as the API's pick; null when it is neither a kind nor a whole service choice. */
export function pickOf(value: string) {
  if (value === "cheapest" || value === "fastest") return { kind: value };
  const fixed = parseServiceChoice(value);
  return fixed ? { kind: "fixed" as const, ...fixed } : null;
}

/** One typed rule as the API's (lib/schemas/batch.ts, RateRule): only the conditions given. */
function ruleOf(r: RuleValues) {
  const upper = (v: string) => v.trim().toUpperCase();
  const weight = { min: bound(r.weight_min), max: bound(r.weight_max) };
  const value = { min: bound(r.value_min), max: bound(r.value_max) };
  return {
    ...(weight.min !== null || weight.max !== null ? { weight: { ...weight, unit: r.weight_unit } } : {}),
    ...(r.country_code.trim() !== ""
      ? {
          destination: {
            country_code: upper(r.country_code),
            ...(r.state_code.trim() !== "" ? { state_code: upper(r.state_code) } : {}),
            ...(r.postal_prefix.trim() !== "" ? { postal_prefix: upper(r.postal_prefix).replace(/\s+/g, "") } : {}),
          },
        }
      : {}),
    ...(value.min !== null || value.max !== null ? { value: { ...value, currency: upper(r.value_currency) } } : {}),
    pick: pickOf(r.pick),
  };
}

/** The API's rate_policy from the form's choices. */
export function ratePolicyOf(values: NewBatchOutput) {
  const fixed = values.rate_policy === "fixed" ? parseServiceChoice(values.fixed_service) : null;
  return {
    kind: values.rate_policy,
    ...(fixed ?? {}),
    ...(values.rate_policy === "rules" ? { rules: values.rules.map(ruleOf), fallback: pickOf(values.fallback) } : {}),
    ...(values.price_cap !== null
      ? { price_cap: { amount: values.price_cap, currency: values.price_cap_currency } }
      : {}),
  };
}

/** The form as it starts: no column chosen yet, the given ship-from, the cheapest rate, a PDF, the mapping saved. */
export function newBatchDefaults(shipper: AddressValues): NewBatchValues {
  return {
    columns: columnsOf(prefillMapping([], {})),
    shipper,
    rate_policy: "cheapest",
    fixed_service: "",
    rules: [],
    fallback: "cheapest",
    price_cap: "",
    price_cap_currency: "USD",
    label_type: "PDF",
    save_mapping: true,
  };
}

/** The form's columns (BATCH_FIELDS' order) as field → column, and back. */
export function choiceOf(columns: readonly string[]): ColumnChoice {
  return Object.fromEntries(BATCH_FIELDS.map((f, i) => [f, columns[i] ?? ""])) as ColumnChoice;
}
export function columnsOf(choice: ColumnChoice): string[] {
  return BATCH_FIELDS.map((f) => choice[f]);
}

/** The upload's options (the form's `options` field): the file's name, the mapping, the ship-from, label and rates. */
export function batchOptions(file: File, values: NewBatchOutput): string {
  return JSON.stringify({
    filename: file.name,
    mapping: mappingOf(choiceOf(values.columns)),
    shipper: values.shipper,
    label_type: values.label_type,
    rate_policy: ratePolicyOf(values),
  });
}

/** POST /v1/batches as a form: the file as chosen (its bytes untouched, so the server can name a non-UTF-8 line) and the options. */
export function batchUpload(file: File, options: string): FormData {
  const form = new FormData();
  form.append("file", file, file.name);
  form.append("options", options);
  return form;
}

/** One upload of a file with its options, and the `Idempotency-Key` every sending of it carries. */
export interface UploadAttempt {
  body: string;
  key: string;
}

/**
 * The upload's attempt: the previous one while the file and the options are the same, else a new key. A 10 000-row
 * file can outlast a proxy's timeout; the clerk who sends it again gets the batch the first sending made (the server
 * replays it), not a second batch of the same orders, which confirming both would buy twice.
 */
export function uploadAttempt(
  previous: UploadAttempt | null,
  file: Pick<File, "name" | "size" | "lastModified">,
  options: string,
  newKey: () => string,
): UploadAttempt {
  const body = JSON.stringify([file.name, file.size, file.lastModified, options]);
  return previous?.body === body ? previous : { body, key: newKey() };
}
