/**
 * Sandbox tracking numbers are stateless: everything tracking needs is inside the number, so a label bought on
 * one server can be tracked on another (or after a restart) with no database.
 *
 *     SBX TTTTTTTTT I OO o DD d RRR S C        e.g. SBX 131727600 0 00 0 00 1 042 0 2  (SBX131727600000000104202)
 *
 * | digits | field |
 * |--------|-------|
 * | T ×9   | purchase time, whole seconds since 2020-01-01T00:00:00Z (good until 2051) |
 * | I      | 1 = international, 0 = domestic |
 * | OO, o  | origin country index and city index into locations.ts (99 = a country not in the table) |
 * | DD, d  | destination country index and city index |
 * | RRR    | serial, random at purchase: several labels bought in the same second differ |
 * | S      | scenario digit (scenarios.ts): 0/4 delivered, 1 pending, 2 in transit, 3 out for delivery, … 9 not found |
 * | C      | check digit |
 *
 * Check digit: the GS1 mod-10 rule USPS uses (docs/carriers.md, "Tracking numbers"): over the 20 data digits read right to left,
 * weights 3, 1, 3, 1, …; `C = (10 − sum mod 10) mod 10`. It catches every single-digit typo and most swaps.
 */

const TRACKING_PREFIX = "SBX";
export const TRACKING_EPOCH_MS = Date.UTC(2020, 0, 1);
const DATA_DIGITS = 20;
const MAX_SECONDS = 999_999_999;
const SHAPE = new RegExp(`^${TRACKING_PREFIX}(\\d{${DATA_DIGITS + 1}})$`);

export interface TrackingNumberParts {
  /** Whole seconds. */
  purchasedAt: Date;
  scenario: number;
  international: boolean;
  originCountry: number;
  originCity: number;
  destinationCountry: number;
  destinationCity: number;
  serial: number;
}

/** GS1 mod-10 check digit of a digit string. */
export function checkDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const d = digits.charCodeAt(digits.length - 1 - i) - 48;
    sum += i % 2 === 0 ? d * 3 : d;
  }
  return (10 - (sum % 10)) % 10;
}

function field(value: number, width: number, name: string): string {
  if (!Number.isInteger(value) || value < 0 || value >= 10 ** width)
    throw new RangeError(`${name} must be an integer 0–${10 ** width - 1}`);
  return String(value).padStart(width, "0");
}

/**
 * Builds a valid number. Route fields default to New York → New York (US, domestic) and the serial to 0, so
 * tests and docs can write `makeTrackingNumber({ purchasedAt, scenario: 5 })`.
 */
export function makeTrackingNumber(
  parts: Partial<TrackingNumberParts> & Pick<TrackingNumberParts, "purchasedAt">,
): string {
  const seconds = Math.floor((parts.purchasedAt.getTime() - TRACKING_EPOCH_MS) / 1000);
  if (!(seconds >= 0 && seconds <= MAX_SECONDS))
    throw new RangeError("purchasedAt must be between 2020-01-01 and 2051-09-09");
  const originCountry = parts.originCountry ?? 0;
  const destinationCountry = parts.destinationCountry ?? originCountry;
  const data =
    field(seconds, 9, "purchasedAt") +
    ((parts.international ?? originCountry !== destinationCountry) ? "1" : "0") +
    field(originCountry, 2, "originCountry") +
    field(parts.originCity ?? 0, 1, "originCity") +
    field(destinationCountry, 2, "destinationCountry") +
    field(parts.destinationCity ?? 0, 1, "destinationCity") +
    field(parts.serial ?? 0, 3, "serial") +
    field(parts.scenario ?? 0, 1, "scenario");
  return `${TRACKING_PREFIX}${data}${checkDigit(data)}`;
}

/** Spaces removed and letters upper-cased, as people type numbers off a label. */
export function normalizeTrackingNumber(input: string): string {
  return input.replace(/\s+/g, "").toUpperCase();
}

/** The parts of a sandbox number, or null when it does not have the shape or fails the check digit. */
export function parseTrackingNumber(input: string): TrackingNumberParts | null {
  const digits = SHAPE.exec(normalizeTrackingNumber(input))?.[1];
  if (!digits) return null;
  const data = digits.slice(0, DATA_DIGITS);
  if (checkDigit(data) !== Number(digits[DATA_DIGITS])) return null;
  const num = (from: number, to: number): number => Number(data.slice(from, to));
  const international = data[9];
  if (international !== "0" && international !== "1") return null;
  return {
    purchasedAt: new Date(TRACKING_EPOCH_MS + num(0, 9) * 1000),
    international: international === "1",
    originCountry: num(10, 12),
    originCity: num(12, 13),
    destinationCountry: num(13, 15),
    destinationCity: num(15, 16),
    serial: num(16, 19),
    scenario: num(19, 20),
  };
}

export function isValidTrackingNumber(input: string): boolean {
  return parseTrackingNumber(input) !== null;
}
