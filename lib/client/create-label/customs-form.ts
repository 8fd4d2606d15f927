import type { CustomsContentType, DutyPayer, Incoterm, WeightUnit } from "@/lib/carriers/types";
import { crossesCustomsBorder } from "@/lib/carriers/customs-territory";

/**
 * The customs section of the create-label form (docs/api.md, "Customs"). Its values mirror the API's `customs`, so
 * an answer's `customs.commodities[0].hs_code` is the input `customs.commodities.0.hs_code`; numbers stay text while
 * typed, as the parcel's do. Its check is customs-schema.ts, loaded after the page (it needs zod).
 */
export interface CommodityValues {
  description: string;
  quantity: string;
  /** Value of one unit. */
  value_amount: string;
  value_currency: string;
  /** Weight of one unit. */
  weight: string;
  weight_unit: WeightUnit;
  hs_code: string;
  origin_country: string;
  sku: string;
}

export interface CustomsValues {
  content_type: CustomsContentType;
  /** Asked for (and sent) only when the content type is "other". */
  content_description: string;
  incoterm: Incoterm;
  /** `account_number` is asked for (and sent) only when a third party pays. */
  duty: { paid_by: DutyPayer; account_number: string };
  invoice: string;
  /** `YYYY-MM-DD` from the date input, or "". */
  invoice_date: string;
  commercial_invoice: boolean;
  certify: boolean;
  signer: string;
  commodities: CommodityValues[];
}

/** Whether the parcel needs a customs declaration: it crosses a customs border (the EU is one territory). */
export function needsCustoms(values: { shipper: { country_code: string }; recipient: { country_code: string } }) {
  const from = values.shipper.country_code.trim();
  const to = values.recipient.country_code.trim();
  return from !== "" && to !== "" && crossesCustomsBorder(from, to);
}

/** Who pays duties under an incoterm, as the API assumes when not told: DDP the sender, the others the recipient. */
export const dutyPayerFor = (incoterm: Incoterm): DutyPayer => (incoterm === "DDP" ? "sender" : "recipient");

/** A blank row; a row added below others takes their currency and weight unit, which one declaration shares. */
export function emptyCommodity(like?: Pick<CommodityValues, "value_currency" | "weight_unit">): CommodityValues {
  return {
    description: "",
    quantity: "1",
    value_amount: "",
    value_currency: like?.value_currency ?? "",
    weight: "",
    weight_unit: like?.weight_unit ?? "LB",
    hs_code: "",
    origin_country: "",
    sku: "",
  };
}

/** The section's starting values: the API's defaults (merchandise, DAP, the recipient pays) and one blank row. */
export function defaultCustoms(signer: string | null | undefined): CustomsValues {
  return {
    content_type: "merchandise",
    content_description: "",
    incoterm: "DAP",
    duty: { paid_by: dutyPayerFor("DAP"), account_number: "" },
    invoice: "",
    invoice_date: "",
    commercial_invoice: false,
    certify: false,
    signer: signer ?? "",
    commodities: [emptyCommodity()],
  };
}

/** What the page knows that a first row can start from: the parcel's weight and the rates' currency. */
export interface PrefillSource {
  weight: string;
  weight_unit: WeightUnit;
  /** The rates' currency once rates are shown; null before. */
  currency: string | null;
}

type Prefilled = Pick<CommodityValues, "weight" | "weight_unit" | "value_currency">;

/**
 * What to write into the first row: its weight (with its unit) and currency follow the page while blank or still
 * holding what was last written there (`last`); once the clerk types their own, it is theirs. The parcel's weight is
 * the row's only while it is the only row. Nothing is made up: a parcel without a weight or a page without rates
 * leaves the row as it is.
 */
export function firstRowPrefill(
  rows: readonly CommodityValues[],
  source: PrefillSource,
  last: Partial<Prefilled>,
): Partial<Prefilled> {
  const row = rows[0];
  if (!row) return {};
  const patch: Partial<Prefilled> = {};
  const ours = (key: "weight" | "value_currency") => row[key].trim() === "" || row[key] === last[key];
  if (rows.length === 1 && source.weight.trim() !== "" && ours("weight")) {
    if (row.weight !== source.weight) patch.weight = source.weight;
    if (row.weight_unit !== source.weight_unit) patch.weight_unit = source.weight_unit;
  }
  if (source.currency && ours("value_currency") && row.value_currency !== source.currency) {
    patch.value_currency = source.currency;
  }
  return patch;
}
