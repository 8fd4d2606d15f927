import type { FieldPath } from "react-hook-form";
import type { CreateLabelValues } from "./form-schema";

export type CreateLabelField = FieldPath<CreateLabelValues>;

const ADDRESS_FIELDS = [
  "country_code",
  "person_name",
  "company_name",
  "address_line1",
  "address_line2",
  "city",
  "state_code",
  "postal_code",
  "phone_number",
  "email",
  "residential",
] as const;

const PARCEL_FIELDS = ["weight", "weight_unit", "length", "width", "height", "dimension_unit"] as const;

/** The form's fields in the order they appear on the page: the first one with a problem gets the focus. */
const FORM_FIELDS: readonly CreateLabelField[] = [
  ...ADDRESS_FIELDS.map((f) => `shipper.${f}` as const),
  ...ADDRESS_FIELDS.map((f) => `recipient.${f}` as const),
  ...PARCEL_FIELDS.map((f) => `parcels.0.${f}` as const),
  "label_type",
  "reference",
];

const ORDER = new Map<string, number>(FORM_FIELDS.map((field, i) => [field, i]));

/**
 * The form field an API field path names (docs/api.md, "Errors"): `recipient.postal_code` → itself,
 * `parcels[0].weight` → `parcels.0.weight`. Null for paths the form has no input for (`carrier_ids[0]`, `options.x`,
 * `shipper.federal_tax_id`, a second parcel, a whole object): their problems are shown above the form instead.
 */
export function formFieldFor(path: string | null | undefined): CreateLabelField | null {
  if (!path) return null;
  const name = path.replace(/\[(\d+)\]/g, ".$1");
  return ORDER.has(name) ? (name as CreateLabelField) : null;
}

export interface FieldError {
  field: CreateLabelField;
  message: string;
}

export interface PlacedProblems {
  /** One per field (the first problem the API listed for it), in the form's order. */
  fields: FieldError[];
  /** Problems no input can show, in the API's order. */
  other: { field: string | null; message: string }[];
}

/** Sorts an answer's problems onto the form: each field's first problem under it, the rest above the form. */
export function placeProblems(problems: readonly { field?: string | null; message: string }[]): PlacedProblems {
  const byField = new Map<CreateLabelField, string>();
  const other: PlacedProblems["other"] = [];
  for (const problem of problems) {
    const field = formFieldFor(problem.field);
    if (!field) other.push({ field: problem.field ?? null, message: problem.message });
    else if (!byField.has(field)) byField.set(field, problem.message);
  }
  const fields = [...byField]
    .map(([field, message]) => ({ field, message }))
    .sort((a, b) => ORDER.get(a.field)! - ORDER.get(b.field)!);
  return { fields, other };
}

/**
 * An error as shown under its field. The API's messages continue the field's name ("must not be empty"), so they
 * are read as a sentence about it; a carrier's own sentence ("Invalid postal code 00000 for US.") stays as it is.
 */
export function fieldErrorText(label: string, message: string): string {
  if (!/^[a-z]/.test(message)) return message;
  const sentence = `${label} ${message}`;
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}
