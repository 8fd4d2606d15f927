import { CarrierError, carrierCode, type Address, type Parcel, type WeightUnit } from "@/lib/carriers/types";
import { convertLength, convertWeight, lengthUnitOf, weightUnitOf, type UnitSystem } from "@/lib/carriers/units";

/**
 * The pieces of MyDHL's request format that rating and shipping share: units, addresses, packages, dates, money.
 * MyDHL takes one system per shipment (`unitOfMeasurement` metric: kg and cm, imperial: lb and in), weights and
 * dimensions to three decimals.
 */

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** A weight in the system's unit, to DHL's three decimals and never below its 0.001 minimum. */
export function weightIn(system: UnitSystem, weight: number, unit: WeightUnit): number {
  return Math.max(0.001, round3(convertWeight(weight, unit, weightUnitOf(system))));
}

function lengthIn(system: UnitSystem, value: number, unit: string): number {
  return Math.max(0.001, round3(convertLength(value, unit, lengthUnitOf(system))));
}

/** A package as rates and shipments take it: its weight, and its dimensions when all three are known. */
export function packageOf(system: UnitSystem, p: Parcel) {
  const dims = p.length && p.width && p.height && p.dimension_unit ? p.dimension_unit : null;
  return {
    weight: weightIn(system, p.weight, p.weight_unit),
    ...(dims
      ? {
          dimensions: {
            length: lengthIn(system, p.length!, dims),
            width: lengthIn(system, p.width!, dims),
            height: lengthIn(system, p.height!, dims),
          },
        }
      : {}),
  };
}

/** Text cut to DHL's limit; undefined for an empty value, which MyDHL's minLength 1 refuses. */
export function clip(v: string | null | undefined, max: number): string | undefined {
  const t = v?.trim();
  return t ? t.slice(0, max) : undefined;
}

/**
 * A rating address: MyDHL needs the city with the postal code (`cityName` minLength 1). A quote may arrive with a
 * postal code alone (docs/api.md, "Requests"), which DHL cannot price: said, naming the field, not guessed.
 */
export function rateAddressOf(a: Address, party: "shipper" | "recipient") {
  const city = clip(a.city, 45);
  if (!city) {
    throw new CarrierError(carrierCode("DHL_FIELD_REQUIRED"), `DHL Express rates only with the ${party}'s city.`, {
      field: `${party}.city`,
    });
  }
  return {
    postalCode: a.postal_code.trim().slice(0, 12),
    cityName: city,
    countryCode: a.country_code.toUpperCase(),
    ...(clip(a.state_code, 35) && a.state_code.trim().length >= 2 ? { provinceCode: clip(a.state_code, 35) } : {}),
    ...(clip(a.address_line1, 45) ? { addressLine1: clip(a.address_line1, 45) } : {}),
  };
}

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
export const records = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter(isRecord) : []);
export const str = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v.trim() : null);
export const num = (v: unknown): number | null => {
  const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
};

/** `YYYY-MM-DD` at the start of a DHL date or date-time ("2024-03-06T23:59:00", "2024-03-06"). */
export function datePart(v: unknown): string | null {
  const m = typeof v === "string" ? /^(\d{4}-\d{2}-\d{2})/.exec(v.trim()) : null;
  return m ? m[1]! : null;
}

/** The zone's offset from GMT on that day as MyDHL writes it: `GMT+01:00`, `GMT-05:00`, `GMT+00:00`. */
function gmtOffset(date: string, timeZone: string): string {
  const noon = new Date(`${date}T12:00:00Z`);
  let name = "GMT";
  try {
    name =
      new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" })
        .formatToParts(noon)
        .find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  } catch {
    name = "GMT";
  }
  return name === "GMT" ? "GMT+00:00" : name;
}

/**
 * `plannedShippingDateAndTime`: the day on the origin's calendar at the daily cut-off, with the origin's offset, as
 * the spec writes it (`2025-01-18T17:00:00 GMT+01:00`). The cut-off, not the time of the call: DHL reads a time
 * already past as a date in the past, and carrierShipDate chose today only before the cut-off.
 */
export function plannedShippingDateAndTime(date: string, cutoff: string, timeZone: string): string {
  return `${date}T${cutoff}:00 ${gmtOffset(date, timeZone)}`;
}

/** Business days from one date to a later one (Saturdays and Sundays skipped); null when not after. */
export function businessDaysBetween(from: string, to: string): number | null {
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`);
  if (!Number.isFinite(start) || !Number.isFinite(end) || end <= start) return null;
  let days = 0;
  for (let t = start + 86_400_000; t <= end; t += 86_400_000) {
    const day = new Date(t).getUTCDay();
    if (day !== 0 && day !== 6) days++;
  }
  return days;
}
