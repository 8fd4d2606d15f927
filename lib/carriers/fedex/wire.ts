import {
  CarrierError,
  carrierCode,
  type Address,
  type Parcel,
  type TaxRegistration,
  type TaxRegistrationType,
  type WeightUnit,
} from "@/lib/carriers/types";
import { convertLength, convertWeight, lengthUnitOf, weightUnitOf, type UnitSystem } from "@/lib/carriers/units";

/**
 * The pieces of FedEx's request format that rating and shipping share: units, parties, package line items, money.
 * FedEx takes LB or KG and IN or CM (whole numbers), one system per shipment, and a total weight in pounds.
 */

const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;

/** A weight in the system's unit, to FedEx's precision (two decimals, never below 0.1). */
export function weightIn(system: UnitSystem, weight: number, unit: WeightUnit): number {
  return Math.max(0.1, round(convertWeight(weight, unit, weightUnitOf(system)), 2));
}

export function totalWeightLb(parcels: readonly Parcel[]): number {
  return round(
    parcels.reduce((sum, p) => sum + weightIn("imperial", p.weight, p.weight_unit), 0),
    2,
  );
}

interface Dimensions {
  length: number;
  width: number;
  height: number;
  units: "IN" | "CM";
}

/** FedEx takes whole numbers; a parcel is never made smaller than it is, so fractions round up. */
function dimensionsOf(system: UnitSystem, p: Parcel): Dimensions | undefined {
  if (p.length === null || p.width === null || p.height === null || p.dimension_unit === null) return undefined;
  const from = p.dimension_unit;
  const size = (n: number) => Math.max(1, Math.ceil(round(convertLength(n, from, lengthUnitOf(system)), 4)));
  return {
    length: size(p.length),
    width: size(p.width),
    height: size(p.height),
    units: system === "imperial" ? "IN" : "CM",
  };
}

export function packageLineItem(system: UnitSystem, p: Parcel) {
  const dimensions = dimensionsOf(system, p);
  return {
    groupPackageCount: 1,
    weight: { units: weightUnitOf(system), value: weightIn(system, p.weight, p.weight_unit) },
    ...(dimensions ? { dimensions } : {}),
  };
}

const present = (v: string | null | undefined): v is string => typeof v === "string" && v.trim() !== "";

/** FedEx wants digits (US and CA: 10, optionally after a 1); spaces, dashes and brackets go. */
function phoneDigits(phone: string | null): string | undefined {
  const digits = phone?.replace(/\D/g, "") ?? "";
  return digits.length > 0 ? digits.slice(0, 15) : undefined;
}

/** An address as the Rate API takes it: no street lines (rating needs only the place). */
export function rateAddressOf(a: Address) {
  return {
    ...(present(a.city) ? { city: a.city.trim().slice(0, 35) } : {}),
    ...(present(a.state_code) ? { stateOrProvinceCode: a.state_code.trim().toUpperCase() } : {}),
    postalCode: a.postal_code.trim(),
    countryCode: a.country_code.trim().toUpperCase(),
    residential: a.residential,
  };
}

/** A party's address: FedEx's ship request requires street lines and a city (ship-api.json); ours always have them. */
function addressOf(a: Address) {
  const streetLines = [a.address_line1, a.address_line2].filter(present).map((l) => l.trim().slice(0, 35));
  return { streetLines, ...rateAddressOf(a), city: a.city.trim().slice(0, 35) };
}

type TinType =
  "PERSONAL_NATIONAL" | "PERSONAL_STATE" | "FEDERAL" | "BUSINESS_NATIONAL" | "BUSINESS_STATE" | "BUSINESS_UNION";

/**
 * A registration's `tinType` (ship-api.json `TaxpayerIdentification.tinType`): a US EIN is FEDERAL; EU-wide numbers
 * (EORI, IOSS) are BUSINESS_UNION; a company's national numbers (VAT, CNPJ, ABN, GST) BUSINESS_NATIONAL; Brazil's
 * CPF, a person's, PERSONAL_NATIONAL. "other" stays FEDERAL, what the address's `federal_tax_id` always went as.
 */
const TIN_TYPES: ReadonlyMap<TaxRegistrationType, TinType> = new Map<TaxRegistrationType, TinType>([
  ["ein", "FEDERAL"],
  ["vat", "BUSINESS_NATIONAL"],
  ["eori", "BUSINESS_UNION"],
  ["ioss", "BUSINESS_UNION"],
  ["cpf", "PERSONAL_NATIONAL"],
  ["cnpj", "BUSINESS_NATIONAL"],
  ["abn", "BUSINESS_NATIONAL"],
  ["gst", "BUSINESS_NATIONAL"],
  ["other", "FEDERAL"],
]);

// TaxpayerIdentification.number: "Maximum length is 18".
const TIN_LENGTH = 18;

/** Registrations as FedEx's `tins[]`; a number longer than FedEx takes is refused before buying, never cut. */
function tinsOf(registrations: readonly TaxRegistration[], field: string) {
  return registrations.map((r, i) => {
    if (r.number.length > TIN_LENGTH) {
      throw new CarrierError(
        "not_supported",
        `FedEx takes tax numbers of up to ${TIN_LENGTH} characters; the ${field}'s ${r.type} has ${r.number.length}.`,
        { field: `customs.tax_registrations.${field}[${i}].number`, limit: TIN_LENGTH },
      );
    }
    return { number: r.number, tinType: TIN_TYPES.get(r.type) ?? "FEDERAL" };
  });
}

/**
 * A shipper or recipient: contact (FedEx requires a phone number) and address, with its tax registrations
 * (lib/carriers/tax-registrations.ts) when it has any.
 */
export function partyOf(
  a: Address,
  field: "shipper" | "recipient",
  registrations: readonly TaxRegistration[],
  fallbackPhone: string | null = null,
) {
  const phoneNumber = phoneDigits(a.phone_number) ?? phoneDigits(fallbackPhone);
  if (!phoneNumber) {
    throw new CarrierError(carrierCode("FEDEX_FIELD_REQUIRED"), `FedEx needs a phone number for the ${field}.`, {
      field: `${field}.phone_number`,
    });
  }
  const contact = {
    ...(present(a.person_name) ? { personName: a.person_name.trim().slice(0, 70) } : {}),
    ...(present(a.company_name) ? { companyName: a.company_name.trim().slice(0, 35) } : {}),
    phoneNumber,
    ...(present(a.email) ? { emailAddress: a.email.trim() } : {}),
  };
  return {
    contact,
    address: addressOf(a),
    ...(registrations.length ? { tins: tinsOf(registrations, field) } : {}),
  };
}

type PaymentType = "SENDER" | "RECIPIENT" | "THIRD_PARTY";

const PAYMENT_TYPES: ReadonlyMap<string, PaymentType> = new Map<string, PaymentType>([
  ["sender", "SENDER"],
  ["recipient", "RECIPIENT"],
  ["third_party", "THIRD_PARTY"],
]);

/** Who pays (shipping charges, duties) in FedEx's words; the sender unless the client named another payer. */
export function paymentType(paidBy: string | null | undefined): PaymentType {
  return PAYMENT_TYPES.get(paidBy ?? "sender") ?? "SENDER";
}

export const money = (n: number) => round(n, 2);

/** A number FedEx sent (numbers, or numeric strings in some fixtures); null when there is none. */
export function amount(v: unknown): number | null {
  const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
}

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

export const records = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter(isRecord) : []);

export const str = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v.trim() : null);

const TRANSIT_WORDS: ReadonlyMap<string, number> = new Map(
  [
    "ONE",
    "TWO",
    "THREE",
    "FOUR",
    "FIVE",
    "SIX",
    "SEVEN",
    "EIGHT",
    "NINE",
    "TEN",
    "ELEVEN",
    "TWELVE",
    "THIRTEEN",
    "FOURTEEN",
    "FIFTEEN",
    "SIXTEEN",
    "SEVENTEEN",
    "EIGHTEEN",
    "NINETEEN",
    "TWENTY",
  ].map((w, i) => [i === 0 ? "ONE_DAY" : `${w}_DAYS`, i + 1]),
);

/** FedEx's transit time words (`THREE_DAYS`) as a number; null for `UNKNOWN` or anything else. */
export function transitDaysOf(word: unknown): number | null {
  return typeof word === "string" ? (TRANSIT_WORDS.get(word.toUpperCase()) ?? null) : null;
}

/** Business days (Monday to Friday) from the ship date to the delivery date, both `YYYY-MM-DD`. */
export function businessDaysBetween(from: string, to: string): number | null {
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`);
  if (!Number.isFinite(start) || !Number.isFinite(end) || end < start) return null;
  let days = 0;
  for (let t = start + 86_400_000; t <= end; t += 86_400_000) {
    const wd = new Date(t).getUTCDay();
    if (wd !== 0 && wd !== 6) days++;
  }
  return days;
}

/** The `YYYY-MM-DD` at the start of a FedEx date or date-time; null for anything else. */
export function datePart(v: unknown): string | null {
  const s = str(v);
  return s && /^\d{4}-\d{2}-\d{2}/.test(s) ? s.slice(0, 10) : null;
}
