import type { FieldPath } from "react-hook-form";
import { formPath } from "@/lib/client/problems";
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

const COMMODITY_FIELDS = [
  "description",
  "quantity",
  "value_amount",
  "value_currency",
  "weight",
  "weight_unit",
  "hs_code",
  "origin_country",
  "sku",
] as const;

/** Where the customs section's item rows sit among the fields below. */
const COMMODITY_ROWS = "customs.commodities.#";

/**
 * The form's fields in the order they appear on the page: the first one with a problem gets the focus. The customs
 * list itself (`customs.commodities`: "must list at least one item") is shown under its rows.
 */
const FORM_FIELDS: readonly string[] = [
  ...ADDRESS_FIELDS.map((f) => `shipper.${f}` as const),
  ...ADDRESS_FIELDS.map((f) => `recipient.${f}` as const),
  ...PARCEL_FIELDS.map((f) => `parcels.0.${f}` as const),
  "label_type",
  "reference",
  "customs.content_type",
  "customs.content_description",
  "customs.incoterm",
  "customs.duty.paid_by",
  "customs.duty.account_number",
  "customs.invoice",
  "customs.invoice_date",
  "customs.commercial_invoice",
  COMMODITY_ROWS,
  "customs.commodities",
  "customs.certify",
  "customs.signer",
] satisfies readonly (CreateLabelField | typeof COMMODITY_ROWS)[];

const ORDER = new Map<string, number>(FORM_FIELDS.map((field, i) => [field, i]));

/** The API allows 100 items in a declaration (lib/schemas/customs.ts). */
const MAX_COMMODITIES = 100;
const COMMODITY_FIELD = new RegExp(`^customs\\.commodities\\.(0|[1-9]\\d{0,2})\\.(${COMMODITY_FIELDS.join("|")})$`);

/** A field's place on the page: its position among the fields, then (for an item's field) the row and column. */
function placeOf(name: string): [number, number, number] | null {
  const at = ORDER.get(name);
  if (at !== undefined && name !== COMMODITY_ROWS) return [at, 0, 0];
  const item = COMMODITY_FIELD.exec(name);
  if (!item || Number(item[1]) >= MAX_COMMODITIES) return null;
  const column = COMMODITY_FIELDS.indexOf(item[2] as (typeof COMMODITY_FIELDS)[number]);
  return [ORDER.get(COMMODITY_ROWS)!, Number(item[1]), column];
}

function comparePlaces(a: string, b: string): number {
  const [pa, pb] = [placeOf(a)!, placeOf(b)!];
  return pa[0] - pb[0] || pa[1] - pb[1] || pa[2] - pb[2];
}

/**
 * The form field an API field path names (docs/api.md, "Errors"): `recipient.postal_code` → itself,
 * `parcels[0].weight` → `parcels.0.weight`, `customs.commodities[2].hs_code` → `customs.commodities.2.hs_code`. Null
 * for paths the form has no input for (`carrier_ids[0]`, `options.x`, `shipper.federal_tax_id`, a second parcel,
 * `customs.aes`, a whole object): their problems are shown above the form instead.
 */
export function formFieldFor(path: string | null | undefined): CreateLabelField | null {
  if (!path) return null;
  const name = formPath(path);
  return placeOf(name) ? (name as CreateLabelField) : null;
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
    .sort((a, b) => comparePlaces(a.field, b.field));
  return { fields, other };
}
