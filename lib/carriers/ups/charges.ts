import type { ExtraCharge, RateQuote } from "@/lib/carriers/types";
import { cents } from "@/lib/carriers/currencies";
import { asArray } from "@/lib/carriers/ups/errors";

/**
 * UPS charges (a rated shipment, or a sold one's ShipmentCharges) as a RateQuote. The account's negotiated rates
 * (NegotiatedRateCharges) win when UPS returns them and the connection wants them (the breakdown from one set:
 * `chargesOf`); itemized charges become
 * `extra_charges` named from UPS's surcharge table (Rating appendix; karrio's SurchargeType), taxes become
 * `duties_and_taxes`, and the parts add up: `base_charge + Σ extra_charges − discount + duties_and_taxes =
 * total_charge`, the total being what UPS says.
 */

/** ItemizedCharges codes: the common ones, worded as on a UPS invoice. */
const SURCHARGES = new Map([
  ["100", "Additional handling"],
  ["110", "Collect on delivery"],
  ["120", "Delivery confirmation"],
  ["121", "Delivery confirmation (shipment)"],
  ["190", "Extended area surcharge"],
  ["199", "Hazardous materials"],
  ["200", "Dry ice"],
  ["220", "Hold for pickup"],
  ["240", "Certificate of origin"],
  ["250", "Print return label"],
  ["258", "Export license verification"],
  ["270", "Residential surcharge"],
  ["280", "Return service, 1 attempt"],
  ["290", "Return service, 3 attempts"],
  ["300", "Saturday delivery"],
  ["310", "Saturday international processing fee"],
  ["350", "Electronic return label"],
  ["374", "UPS prepared export declaration"],
  ["375", "Fuel surcharge"],
  ["376", "Delivery area surcharge"],
  ["377", "Large package surcharge"],
  ["378", "Shipper pays duty and tax"],
  ["379", "Shipper pays duty and tax (unpaid)"],
  ["380", "Express Plus surcharge"],
  ["400", "Declared value"],
  ["401", "Additional handling (shipment)"],
  ["402", "Shipper release"],
  ["405", "German pickup surcharge"],
  ["406", "German road tax"],
  ["407", "Extended area pickup"],
  ["410", "Return of document"],
  ["430", "Peak season surcharge"],
  ["431", "Peak season surcharge, large package"],
  ["432", "Peak season surcharge, additional handling"],
  ["434", "Peak season surcharge, residential"],
  ["440", "Large package (shipment)"],
  ["441", "Carbon neutral"],
  ["444", "Import control"],
  ["445", "Commercial invoice removal"],
  ["470", "Committed delivery window"],
  ["480", "Security surcharge"],
  ["492", "Customer transaction fee"],
  ["500", "Collect on delivery (shipment)"],
  ["510", "Lift gate for pickup"],
  ["511", "Lift gate for delivery"],
  ["512", "Drop off at UPS facility"],
  ["515", "UPS Premium Care"],
  ["520", "Oversize pallet"],
  ["541", "Direct delivery only"],
  ["542", "Deliver to addressee only"],
  ["546", "Electronic package release authentication"],
  ["550", "Item disposal"],
  ["551", "UK border fee"],
  ["555", "UPS Premier Gold"],
  ["556", "UPS Premier Silver"],
  ["557", "UPS Premier Platinum"],
]);

interface Money {
  currency: string;
  amount: number;
}

function money(v: unknown): Money | null {
  const m = (Array.isArray(v) ? v[0] : v) as { CurrencyCode?: unknown; MonetaryValue?: unknown } | undefined;
  if (!m || typeof m !== "object") return null;
  const amount = Number(m.MonetaryValue);
  if (typeof m.MonetaryValue !== "string" && typeof m.MonetaryValue !== "number") return null;
  if (!Number.isFinite(amount)) return null;
  return { currency: typeof m.CurrencyCode === "string" ? m.CurrencyCode.toUpperCase() : "", amount };
}

function surchargeName(item: { Code?: unknown; Description?: unknown; SubType?: unknown }): string {
  const code = typeof item.Code === "string" ? item.Code : "";
  const known = SURCHARGES.get(code);
  if (known) return known;
  if (typeof item.Description === "string" && item.Description.trim()) return item.Description.trim();
  if (typeof item.SubType === "string" && item.SubType.trim()) return item.SubType.trim().replace(/_/g, " ");
  return `UPS charge ${code || "(no code)"}`;
}

function itemized(list: unknown, currency: string): ExtraCharge[] {
  const out: ExtraCharge[] = [];
  for (const raw of asArray(list)) {
    const item = raw as { Code?: unknown; Description?: unknown; SubType?: unknown };
    const m = money(item);
    if (!m || m.amount === 0) continue;
    out.push({ name: surchargeName(item), amount: cents(m.amount), currency: m.currency || currency });
  }
  return out;
}

function taxes(list: unknown): number {
  let sum = 0;
  for (const raw of asArray(list)) sum += money(raw)?.amount ?? 0;
  return sum;
}

/** The charge blocks of a rated or sold UPS shipment (field names are the same in Rating and Shipping). */
export interface UpsCharges {
  TotalCharges?: unknown;
  TotalChargesWithTaxes?: unknown;
  BaseServiceCharge?: unknown;
  TransportationCharges?: unknown;
  ServiceOptionsCharges?: unknown;
  ItemizedCharges?: unknown;
  TaxCharges?: unknown;
}

export interface UpsNegotiatedCharges {
  TotalCharge?: unknown;
  TotalChargesWithTaxes?: unknown;
  BaseServiceCharge?: unknown;
  ItemizedCharges?: unknown;
  TaxCharges?: unknown;
}

/**
 * The quote's money; null when UPS gave no total. `preferNegotiated`: use NegotiatedRateCharges when present.
 * Answers which rates were used, for the quote's meta.
 *
 * The parts come from one set of UPS's charges, never both: mixing a negotiated base with list surcharges (or the
 * list base with negotiated surcharges) makes a "discount" UPS never gave. So:
 *
 * - negotiated rates that UPS itemizes (NegotiatedRateCharges.ItemizedCharges): the negotiated set, its base UPS's
 *   or its total less its itemized charges; no discount unless UPS's total is below its own parts;
 * - negotiated rates UPS does not itemize (a bare TotalCharge, or a base with it): the published set throughout,
 *   and the discount is the difference of UPS's two totals (the account's saving);
 * - published rates: the published set.
 */
export function chargesOf(
  published: UpsCharges | undefined,
  negotiatedCharges: UpsNegotiatedCharges | undefined,
  preferNegotiated: boolean,
):
  | (Pick<
      RateQuote,
      "currency" | "base_charge" | "discount" | "duties_and_taxes" | "total_charge" | "extra_charges"
    > & {
      negotiated: boolean;
    })
  | null {
  const negotiated = preferNegotiated && money(negotiatedCharges?.TotalCharge) ? negotiatedCharges! : null;
  const beforeTaxes = negotiated ? money(negotiated.TotalCharge) : money(published?.TotalCharges);
  if (!beforeTaxes) return null;
  const currency = beforeTaxes.currency;
  const taxCharges = negotiated?.TaxCharges ?? published?.TaxCharges;
  const duties = cents(taxes(taxCharges));
  const withTaxes = money(negotiated ? negotiated.TotalChargesWithTaxes : published?.TotalChargesWithTaxes);
  const total = cents(withTaxes ? withTaxes.amount : beforeTaxes.amount + duties);

  const negotiatedItems = negotiated ? itemized(negotiated.ItemizedCharges, currency) : [];
  const fromNegotiated = negotiatedItems.length > 0;
  const extras = fromNegotiated ? negotiatedItems : itemized(published?.ItemizedCharges, currency);
  const extrasSum = extras.reduce((s, e) => s + e.amount, 0);

  // The set's own total before taxes, and the account's saving when the list set explains a negotiated total.
  const listTotal = money(published?.TotalCharges);
  const saving = negotiated && !fromNegotiated && listTotal ? cents(listTotal.amount - beforeTaxes.amount) : 0;

  // Base: UPS's own base in the chosen set; else (list set) transportation less its itemized surcharges (UPS:
  // transportation = base + fuel); else whatever the total leaves.
  const transport = money(published?.TransportationCharges);
  const base = fromNegotiated
    ? money(negotiated!.BaseServiceCharge)
    : (money(published?.BaseServiceCharge) ?? (transport ? { currency, amount: transport.amount - extrasSum } : null));
  let baseCharge = cents(base ? base.amount : total + saving - extrasSum - duties);
  let discount = saving;
  const gap = cents(total - (baseCharge + extrasSum - saving + duties));
  if (gap < 0) discount = cents(discount - gap);
  else if (gap > 0) {
    // What UPS charged beyond the parts it itemized: accessorials (ServiceOptionsCharges) or charges it lumps in.
    const options = money(published?.ServiceOptionsCharges);
    if (options && options.amount > 0) extras.push({ name: "Service options", amount: gap, currency });
    else baseCharge = cents(baseCharge + gap);
  }
  return {
    currency,
    base_charge: baseCharge,
    discount: cents(discount),
    duties_and_taxes: duties,
    total_charge: total,
    extra_charges: extras,
    negotiated: negotiated !== null,
  };
}
