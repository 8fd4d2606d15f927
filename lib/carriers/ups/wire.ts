import {
  carrierCode,
  type AdapterMessage,
  type Address,
  type DimensionUnit,
  type Parcel,
  type WeightUnit,
} from "@/lib/carriers/types";
import { convertLength, convertWeight } from "@/lib/carriers/units";

/**
 * Pieces every UPS request shares: UPS's field limits, units, addresses and packages. UPS writes every number as a
 * string and every unit as a `{Code, Description}` pair.
 *
 * Text longer than UPS accepts is cut to its limit, and a `UPS_FIELD_TRUNCATED` warning names the field: UPS would
 * refuse the whole request for one long company name, and prints only the first 30 characters of most fields anyway.
 */

export class Fitter {
  readonly messages: AdapterMessage[] = [];

  /** `value` trimmed and cut to `max` characters (with a warning naming `field`), or undefined when blank. */
  fit(value: string | null | undefined, max: number, field: string): string | undefined {
    const v = value?.replace(/\s+/g, " ").trim();
    if (!v) return undefined;
    const chars = Array.from(v);
    if (chars.length <= max) return v;
    const kept = chars.slice(0, max).join("").trim();
    this.cut(field, `the ${max} characters UPS accepts`, kept, max);
    return kept;
  }

  /** Records that `field` was cut to `kept` because it is longer than `limitText`. */
  cut(field: string, limitText: string, kept: string, limit: number): void {
    this.messages.push({
      code: carrierCode("UPS_FIELD_TRUNCATED"),
      level: "warning",
      message: `${field} is longer than ${limitText}; it was cut to "${kept}".`,
      details: { field, limit },
    });
  }
}

/** UPS measures US and Puerto Rico shipments in pounds and inches, and the rest of the world metrically. */
export function unitsFor(originCountry: string): { weight: "LBS" | "KGS"; dimension: "IN" | "CM" } {
  return new Set(["US", "PR"]).has(originCountry.toUpperCase())
    ? { weight: "LBS", dimension: "IN" }
    : { weight: "KGS", dimension: "CM" };
}

/** A weight in UPS's unit (its words: LBS, KGS). */
const weightIn = (value: number, from: WeightUnit, to: "LBS" | "KGS") =>
  convertWeight(value, from, to === "KGS" ? "KG" : "LB");

/** A weight as UPS writes it: rounded up to a tenth (never under-declared), at least 0.1. */
function weightText(value: number): string {
  const tenths = Math.max(1, Math.ceil(value * 10 - 1e-9));
  return String(tenths / 10);
}

/** A dimension as UPS's Shipping API takes it: whole units (3 digits at most), rounded up. */
function dimensionText(value: number, from: DimensionUnit, to: "IN" | "CM"): string {
  const converted = convertLength(value, from, to);
  return String(Math.max(1, Math.ceil(converted - 1e-9)));
}

const WEIGHT_NAMES = new Map([
  ["LBS", "Pounds"],
  ["KGS", "Kilograms"],
]);
const DIMENSION_NAMES = new Map([
  ["IN", "Inches"],
  ["CM", "Centimeters"],
]);

const weightUnit = (code: "LBS" | "KGS") => ({ Code: code, Description: WEIGHT_NAMES.get(code)! });
const dimensionUnit = (code: "IN" | "CM") => ({ Code: code, Description: DIMENSION_NAMES.get(code)! });

/** Our packaging names (and karrio's) → UPS packaging codes; anything else is the customer's own box ("02"). */
const PACKAGING = new Map([
  ["envelope", "01"],
  ["ups_letter", "01"],
  ["your_packaging", "02"],
  ["ups_customer_supplied_package", "02"],
  ["tube", "03"],
  ["ups_tube", "03"],
  ["pak", "04"],
  ["ups_pak", "04"],
  ["ups_express_box", "21"],
  ["ups_25kg_box", "24"],
  ["ups_10kg_box", "25"],
  ["pallet", "30"],
  ["ups_pallet", "30"],
  ["small_box", "2a"],
  ["ups_small_express_box", "2a"],
  ["medium_box", "2b"],
  ["ups_medium_express_box", "2b"],
  ["large_box", "2c"],
  ["ups_large_express_box", "2c"],
]);

/** Every packaging code the adapter can send (codes.test.ts holds them to UPS's lists). */
export const UPS_PACKAGING_CODES: ReadonlySet<string> = new Set(["02", ...PACKAGING.values()]);

export function packagingCode(parcel: Parcel): string {
  return PACKAGING.get((parcel.packaging_type ?? "").trim().toLowerCase()) ?? "02";
}

/** One parcel as a UPS Package body (without its packaging key, which Rating and Shipping name differently). */
export function packageMeasures(parcel: Parcel, units: ReturnType<typeof unitsFor>) {
  const { length, width, height, dimension_unit } = parcel;
  const dimensions =
    length && width && height && dimension_unit
      ? {
          Dimensions: {
            UnitOfMeasurement: dimensionUnit(units.dimension),
            Length: dimensionText(length, dimension_unit, units.dimension),
            Width: dimensionText(width, dimension_unit, units.dimension),
            Height: dimensionText(height, dimension_unit, units.dimension),
          },
        }
      : {};
  return {
    ...dimensions,
    PackageWeight: {
      UnitOfMeasurement: weightUnit(units.weight),
      Weight: weightText(weightIn(parcel.weight, parcel.weight_unit, units.weight)),
    },
  };
}

/** The shipment's weight: the sum of its parcels', in UPS's unit. */
export function totalWeight(parcels: Parcel[], unit: "LBS" | "KGS") {
  const sum = parcels.reduce((s, p) => s + weightIn(p.weight, p.weight_unit, unit), 0);
  return { UnitOfMeasurement: weightUnit(unit), Weight: weightText(sum) };
}

/** Postal codes as UPS wants them: no spaces or hyphens (A1A1A1, 100000, 123456789). */
const postal = (code: string) => code.replace(/[\s-]/g, "").toUpperCase();

/** An address block; `field` names it in warnings ("shipper", "recipient"). */
export function upsAddress(a: Address, f: Fitter, field: string, residential = false) {
  const lines = [
    f.fit(a.address_line1, 35, `${field}.address_line1`),
    f.fit(a.address_line2, 35, `${field}.address_line2`),
  ].filter((l): l is string => l !== undefined);
  const city = f.fit(a.city, 30, `${field}.city`);
  const state = a.state_code.trim().toUpperCase();
  const postalCode = postal(a.postal_code);
  return {
    AddressLine: lines,
    ...(city ? { City: city } : {}),
    ...(state ? { StateProvinceCode: state.slice(0, 5) } : {}),
    ...(postalCode ? { PostalCode: postalCode } : {}),
    CountryCode: a.country_code.trim().toUpperCase(),
    ...(residential ? { ResidentialAddressIndicator: "Y" } : {}),
  };
}

// North American numbers: UPS wants the ten digits (area code + number), without the country's leading 1.
const NANP = new Set(["US", "CA", "PR", "VI"]);

/** Digits only, as UPS takes them (15 at most, E.164's length). */
function phoneDigits(phone: string | null, country: string): string | undefined {
  let digits = (phone ?? "").replace(/\D/g, "");
  if (NANP.has(country.toUpperCase()) && digits.length === 11 && digits.startsWith("1")) digits = digits.slice(1);
  return digits ? digits.slice(0, 15) : undefined;
}

/** A party with name, contact and address, as the Shipping API names them. */
export function upsParty(a: Address, f: Fitter, field: string, residential = false) {
  const name = f.fit(
    a.company_name ?? a.person_name,
    35,
    `${field}.${a.company_name ? "company_name" : "person_name"}`,
  );
  const attention = f.fit(a.person_name ?? a.company_name, 35, `${field}.person_name`);
  const phone = phoneDigits(a.phone_number, a.country_code);
  const email = f.fit(a.email, 50, `${field}.email`);
  return {
    ...(name ? { Name: name } : {}),
    ...(attention ? { AttentionName: attention } : {}),
    ...(phone ? { Phone: { Number: phone } } : {}),
    ...(email ? { EMailAddress: email } : {}),
    Address: upsAddress(a, f, field, residential),
  };
}

/** `YYYYMMDD` → `YYYY-MM-DD`, or null when it is not a date. */
export function isoFromUpsDate(v: unknown): string | null {
  if (typeof v !== "string" || !/^\d{8}$/.test(v)) return null;
  return `${v.slice(0, 4)}-${v.slice(4, 6)}-${v.slice(6, 8)}`;
}
