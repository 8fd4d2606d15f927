import {
  CarrierError,
  carrierCode,
  type AdapterMessage,
  type Address,
  type Parcel,
  type WeightUnit,
} from "@/lib/carriers/types";
import { oneParcel } from "@/lib/carriers/parcels";
import { convertLength, convertWeight } from "@/lib/carriers/units";

/**
 * What every USPS request shares (docs/usps.md, "Rates" and "Labels"): weights in pounds and dimensions in inches (the
 * v3 files take no other unit), US ZIP Codes, names split in first and last, and USPS's field lengths.
 */

/** A weight in pounds, rounded up to a hundredth (never under-declared), at least 0.01. */
export function pounds(value: number, unit: WeightUnit): number {
  const lb = convertWeight(value, unit, "LB");
  return Math.max(0.01, Math.ceil(lb * 100 - 1e-9) / 100);
}

/** A dimension in inches, rounded up to a tenth; a parcel without dimensions is sent as 1 in each way. */
function inches(value: number | null, unit: Parcel["dimension_unit"]): number {
  if (value === null || !(value > 0)) return 1;
  const inch = convertLength(value, unit ?? "IN", "IN");
  return Math.max(0.1, Math.ceil(inch * 10 - 1e-9) / 10);
}

export function measures(p: Parcel) {
  return {
    weight: pounds(p.weight, p.weight_unit),
    length: inches(p.length, p.dimension_unit),
    width: inches(p.width, p.dimension_unit),
    height: inches(p.height, p.dimension_unit),
  };
}

/**
 * Machinable by USPS's parcel rules as the Domestic Mail Manual states them (at most 22 × 18 × 15 in and
 * 25 lb, at least 6 × 3 × 0.25 in and 6 oz); anything else is NON_MACHINABLE, which USPS prices with a surcharge.
 */
export function processingCategory(m: ReturnType<typeof measures>): "MACHINABLE" | "NON_MACHINABLE" {
  const [a, b, c] = [m.length, m.width, m.height].sort((x, y) => y - x) as [number, number, number];
  const fits = a <= 22 && b <= 18 && c <= 15 && m.weight <= 25;
  const bigEnough = a >= 6 && b >= 3 && c >= 0.25 && m.weight >= 6 / 16;
  return fits && bigEnough ? "MACHINABLE" : "NON_MACHINABLE";
}

/** A 5-digit ZIP Code, from "60607" or "60607-1234"; null when the text is not one. */
/** USPS sells one label per parcel: a shipment of several is not for one call. */
export const oneUspsParcel = (parcels: Parcel[]) =>
  oneParcel(parcels, "USPS prices and labels one parcel at a time: send a shipment per parcel.");

/** A finite number from USPS's JSON, or null. */
export const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

export function zip5(postalCode: string): string | null {
  return /^(\d{5})(?:[-\s]?\d{4})?$/.exec(postalCode.trim())?.[1] ?? null;
}

function zip4(postalCode: string): string | null {
  return /^\d{5}[-\s]?(\d{4})$/.exec(postalCode.trim())?.[1] ?? null;
}

/** The origin must be a US ZIP Code: USPS v3 prices and labels mail that enters its network in the US. */
export function originZip(a: Address): string {
  const zip = a.country_code.toUpperCase() === "US" ? zip5(a.postal_code) : null;
  if (!zip) {
    throw new CarrierError("not_supported", "USPS ships from US addresses only, with a 5-digit ZIP Code.", {
      field: "shipper.postal_code",
    });
  }
  return zip;
}

const cut = (s: string, max: number) => s.trim().slice(0, max);
const present = (s: string | null | undefined) => (s && s.trim() ? s.trim() : null);

/**
 * "Ada Lovelace" → first "Ada", last "Lovelace" (USPS's Addressee: 50 characters each). The label files require "the
 * First and Last Name or Firm": a one-word name ("Reception", "Cher") with no company is written as the firm, the one
 * field it can fill alone, rather than a first name USPS refuses without a last.
 */
export function names(a: Address): { firstName?: string; lastName?: string; firm?: string } {
  const person = present(a.person_name);
  const firm = present(a.company_name);
  const out: { firstName?: string; lastName?: string; firm?: string } = {};
  if (person && !firm && !/\s/.test(person)) return { firm: cut(person, 50) };
  if (person) {
    const parts = person.split(/\s+/);
    const last = parts.length > 1 ? parts.pop()! : null;
    out.firstName = cut(parts.join(" "), 50);
    if (last) out.lastName = cut(last, 50);
  }
  if (firm) out.firm = cut(firm, 50);
  return out;
}

/** A phone as USPS's pattern takes it (`^\+?[1-9][0-9]{7,14}$|^[0-9]{6,15}$`): digits only; absent when it cannot. */
export function phone(a: Address): { phone?: string } {
  const digits = (a.phone_number ?? "").replace(/\D/g, "");
  const national =
    a.country_code.toUpperCase() === "US" && digits.length === 11 && digits.startsWith("1") ? digits.slice(1) : digits;
  return /^[0-9]{6,15}$/.test(national) ? { phone: national } : {};
}

/** An email as USPS takes it (50 characters at most, its pattern); absent otherwise. */
export function email(a: Address): { email?: string } {
  const e = present(a.email);
  return e && e.length <= 50 && /^[a-zA-Z0-9_+&*-]+(?:\.[a-zA-Z0-9_+&*-]+)*@(?:[a-zA-Z0-9-]+\.)+[a-zA-Z]{2,}$/.test(e)
    ? { email: e }
    : {};
}

/** Territories USPS serves as domestic mail, with US ZIP Codes (shipping-options prices them by ZIP Code). */
const TERRITORIES: ReadonlySet<string> = new Set(["PR", "GU", "VI", "AS", "MP", "FM", "MH", "PW"]);

/** Whether mail to `countryCode` is international for USPS: anywhere outside the US and the territories it serves. */
export function isInternational(countryCode: string): boolean {
  const to = countryCode.toUpperCase();
  return to !== "US" && !TERRITORIES.has(to);
}

/** A US address as the label files write it (DomesticAddress: city 28 characters, 5-digit ZIP Code and ZIP+4). */
export function domesticAddress(a: Address, field: string) {
  const zip = zip5(a.postal_code);
  if (!zip) {
    throw new CarrierError(carrierCode("USPS_ZIP_CODE"), `${field}: USPS needs a 5-digit ZIP Code.`, {
      field: `${field}.postal_code`,
    });
  }
  const plus4 = zip4(a.postal_code);
  return {
    ...names(a),
    streetAddress: cut(a.address_line1, 50),
    ...(present(a.address_line2) ? { secondaryAddress: cut(a.address_line2!, 50) } : {}),
    city: cut(a.city, 28),
    // A territory USPS serves as domestic mail is its own "state" (the State pattern lists PR, GU, VI, AS, MP, FM, MH
    // and PW), whatever state_code the address carries.
    state: TERRITORIES.has(a.country_code.toUpperCase())
      ? a.country_code.toUpperCase()
      : a.state_code.trim().toUpperCase(),
    ZIPCode: zip,
    ...(plus4 ? { ZIPPlus4: plus4 } : {}),
    ...phone(a),
    ...email(a),
  };
}

/**
 * Carrier packaging asked for on the parcel (`packaging_type`, `package_preset`): USPS's flat-rate boxes and envelopes
 * take other rate indicators and are not sold here, so the parcel goes as the shipper's own box, and the warning says
 * so.
 */
export function packagingWarnings(p: Parcel): AdapterMessage[] {
  const out: AdapterMessage[] = [];
  for (const [key, value] of [
    ["packaging_type", p.packaging_type],
    ["package_preset", p.package_preset],
  ] as const) {
    if (value && value !== "your_packaging") {
      out.push({
        code: "not_supported",
        level: "warning",
        message: "USPS packaging (flat rate) is not sold here: the parcel is priced and labelled as your own box.",
        details: { field: `parcels[0].${key}` },
      });
    }
  }
  return out;
}
