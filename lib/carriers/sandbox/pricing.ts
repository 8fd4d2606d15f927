import type { Address, ExtraCharge, Parcel, RateQuote, ShipDate } from "@/lib/carriers/types";
import { carrierShipDate } from "@/lib/carriers/ship-date";
import { addBusinessDays, isoDate } from "@/lib/carriers/sandbox/dates";
import { invalidOption, invalidPostalCode, weightOverLimit } from "@/lib/carriers/sandbox/errors";
import type { SandboxService } from "@/lib/carriers/sandbox/services";
import { actualWeightKg, billableWeightKg, MAX_PARCEL_WEIGHT_KG } from "@/lib/carriers/sandbox/units";

/**
 * Sandbox tariff. All arithmetic is in integer cents and every component is rounded once, so
 * `total_charge = base_charge + Σ extra_charges − discount + duties_and_taxes` holds exactly.
 *
 * - Zone: domestic `1 + |d(origin) − d(destination)|` (1–10) where d is the first character of the postal code
 *   (a digit as itself, a letter as its alphabet position mod 10, so "SW1A" and "K1A 0B1" work too);
 *   international is always zone 12.
 * - Zone rate: 1.10 per kg in zone 1, +0.35 per zone (zone 9: 3.90, zone 12: 4.95).
 * - Base, per parcel: `service flat + service multiplier × zone rate × billable kg`, rounded to the cent, summed.
 *   Billable kg = max(actual, L×W×H/5000 cm³) after converting units (units.ts).
 * - Fuel surcharge: `fuel_surcharge_percent` of the base. Residential: 3.95 per parcel when the recipient is
 *   residential. Both are listed in `extra_charges`.
 * - Discount: 5 % of the base for 3 or more parcels.
 * - Duties and taxes (international only): 10 % of `options.declared_value` (a number in the rate currency), 0
 *   when no value is declared.
 * - Currency from the origin country; amounts are the same numbers whatever the currency (it is a sandbox).
 */

const INTERNATIONAL_ZONE = 12;
const RESIDENTIAL_SURCHARGE_CENTS = 395;
const VOLUME_DISCOUNT_MIN_PARCELS = 3;
const VOLUME_DISCOUNT_PERCENT = 5;
const DUTY_RATE_PERCENT = 10;
const INVALID_POSTAL_CODE = "00000";

const EURO_COUNTRIES = new Set([
  "AT",
  "BE",
  "CY",
  "DE",
  "EE",
  "ES",
  "FI",
  "FR",
  "GR",
  "HR",
  "IE",
  "IT",
  "LT",
  "LU",
  "LV",
  "MT",
  "NL",
  "PT",
  "SI",
  "SK",
]);
const CURRENCIES: ReadonlyMap<string, string> = new Map([
  ["US", "USD"],
  ["CA", "CAD"],
  ["GB", "GBP"],
  ["AU", "AUD"],
]);

export function currencyFor(countryCode: string): string {
  const cc = countryCode.toUpperCase();
  return CURRENCIES.get(cc) ?? (EURO_COUNTRIES.has(cc) ? "EUR" : "USD");
}

export function isInternational(shipper: Address, recipient: Address): boolean {
  return shipper.country_code.toUpperCase() !== recipient.country_code.toUpperCase();
}

/** 0–9 from the first letter or digit of a postal code; 0 when there is none. */
export function postalZoneDigit(postalCode: string): number {
  const ch = postalCode
    .trim()
    .toUpperCase()
    .match(/[0-9A-Z]/)?.[0];
  if (!ch) return 0;
  return /[0-9]/.test(ch) ? Number(ch) : (ch.charCodeAt(0) - 65) % 10;
}

export function zoneFor(shipper: Address, recipient: Address): number {
  if (isInternational(shipper, recipient)) return INTERNATIONAL_ZONE;
  return 1 + Math.abs(postalZoneDigit(shipper.postal_code) - postalZoneDigit(recipient.postal_code));
}

function zoneRateCentsPerKg(zone: number): number {
  return 110 + 35 * (zone - 1);
}

/** `pct` % of an amount in cents, rounded half up (the toFixed strips float noise such as 104.54999…). */
function percentOfCents(cents: number, pct: number): number {
  return Math.round(Number(((cents * pct) / 100).toFixed(6)));
}

/** The deterministic refusals a real carrier would give for this shipment. */
export function validateShipment(shipper: Address, recipient: Address, parcels: Parcel[]): void {
  for (const [field, address] of [
    ["shipper", shipper],
    ["recipient", recipient],
  ] as const) {
    if (address.postal_code.trim() === INVALID_POSTAL_CODE) {
      throw invalidPostalCode(address.postal_code.trim(), address.country_code.toUpperCase(), `${field}.postal_code`);
    }
  }
  parcels.forEach((parcel, i) => {
    const kg = actualWeightKg(parcel);
    if (kg > MAX_PARCEL_WEIGHT_KG) throw weightOverLimit(i, kg, MAX_PARCEL_WEIGHT_KG);
  });
}

/** `options.declared_value` as a non-negative number, or null when absent. */
function declaredValue(options: Record<string, unknown>): number | null {
  const raw = options.declared_value;
  if (raw === undefined || raw === null || raw === "") return null;
  const value = typeof raw === "number" ? raw : typeof raw === "string" ? Number(raw) : Number.NaN;
  if (!Number.isFinite(value) || value < 0) throw invalidOption("declared_value", "must be a non-negative number.");
  return value;
}

export interface PricingInput {
  shipper: Address;
  recipient: Address;
  parcels: Parcel[];
  options: Record<string, unknown>;
  ship_date: ShipDate;
}

export interface PricingSettings {
  fuelSurchargePercent: number;
  /** With the request's ship date, the day transit counts from (the default 17:00 cut-off, as real carriers'). */
  now: Date;
}

export function priceService(service: SandboxService, input: PricingInput, settings: PricingSettings): RateQuote {
  const currency = currencyFor(input.shipper.country_code);
  const international = isInternational(input.shipper, input.recipient);
  const rate = zoneRateCentsPerKg(zoneFor(input.shipper, input.recipient));

  let base = 0;
  for (const parcel of input.parcels) {
    base += Math.round(service.flatCents + service.multiplier * rate * billableWeightKg(parcel));
  }
  const fuel = percentOfCents(base, settings.fuelSurchargePercent);
  const residential = input.recipient.residential ? RESIDENTIAL_SURCHARGE_CENTS * input.parcels.length : 0;
  const discount =
    input.parcels.length >= VOLUME_DISCOUNT_MIN_PARCELS ? percentOfCents(base, VOLUME_DISCOUNT_PERCENT) : 0;
  const declared = international ? declaredValue(input.options) : null;
  const duties = declared ? percentOfCents(Math.round(declared * 100), DUTY_RATE_PERCENT) : 0;

  const extras: ExtraCharge[] = [];
  if (fuel > 0) extras.push({ name: "Fuel surcharge", amount: fuel / 100, currency });
  if (residential > 0) extras.push({ name: "Residential surcharge", amount: residential / 100, currency });

  return {
    service: service.code,
    service_name: service.name,
    currency,
    base_charge: base / 100,
    discount: discount / 100,
    duties_and_taxes: duties / 100,
    total_charge: (base + fuel + residential - discount + duties) / 100,
    extra_charges: extras,
    transit_days: service.transitDays,
    estimated_delivery: isoDate(
      addBusinessDays(new Date(`${carrierShipDate(input.ship_date, settings.now)}T00:00:00Z`), service.transitDays),
    ),
  };
}
