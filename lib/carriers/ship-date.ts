import { z } from "zod";
import type { Address, ShipDate } from "@/lib/carriers/types";

/**
 * When a parcel leaves: carriers date a shipment by the origin's calendar, not UTC. At 19:00 on a Friday in Chicago
 * it is already Saturday in UTC, and a UTC date would quote transit from a Saturday and print a Saturday ship date.
 *
 * The origin's time zone comes from its address: a country with one zone (Intl's own list), or the state or province
 * for the countries below that span several. Limits, knowingly: a state that spans two zones gets the zone most of
 * its people live in (Texas's El Paso corner, Florida's panhandle, Indiana's north-west, the Dakotas' west, Idaho's
 * north, Oregon's Malheur county and Kentucky's west are an hour off); other multi-zone countries get their
 * capital's zone; an unknown country gets UTC.
 */

const ET = "America/New_York";
const CT = "America/Chicago";
const MT = "America/Denver";
const PT = "America/Los_Angeles";

const ZONES_BY_STATE: Record<string, Record<string, string>> = {
  US: {
    ...Object.fromEntries(
      ["CT", "DE", "DC", "FL", "GA", "IN", "KY", "ME", "MD", "MA", "MI", "NH", "NJ", "NY", "NC", "OH", "PA", "RI", "SC", "VT", "VA", "WV"].map((s) => [s, ET]), // prettier-ignore
    ),
    ...Object.fromEntries(
      ["AL", "AR", "IL", "IA", "KS", "LA", "MN", "MS", "MO", "NE", "ND", "OK", "SD", "TN", "TX", "WI"].map((s) => [s, CT]), // prettier-ignore
    ),
    ...Object.fromEntries(["CO", "ID", "MT", "NM", "UT", "WY"].map((s) => [s, MT])),
    ...Object.fromEntries(["CA", "NV", "OR", "WA"].map((s) => [s, PT])),
    AZ: "America/Phoenix",
    AK: "America/Anchorage",
    HI: "Pacific/Honolulu",
  },
  CA: {
    NL: "America/St_Johns",
    NS: "America/Halifax",
    NB: "America/Moncton",
    PE: "America/Halifax",
    QC: "America/Toronto",
    ON: "America/Toronto",
    MB: "America/Winnipeg",
    SK: "America/Regina",
    AB: "America/Edmonton",
    BC: "America/Vancouver",
    YT: "America/Whitehorse",
    NT: "America/Yellowknife",
    NU: "America/Iqaluit",
  },
  AU: {
    NSW: "Australia/Sydney",
    ACT: "Australia/Sydney",
    VIC: "Australia/Melbourne",
    QLD: "Australia/Brisbane",
    SA: "Australia/Adelaide",
    WA: "Australia/Perth",
    TAS: "Australia/Hobart",
    NT: "Australia/Darwin",
  },
  MX: {
    BC: "America/Tijuana",
    BCN: "America/Tijuana",
    SON: "America/Hermosillo",
    BCS: "America/Mazatlan",
    SIN: "America/Mazatlan",
    NAY: "America/Mazatlan",
    CHH: "America/Chihuahua",
    ROO: "America/Cancun",
  },
};

/**
 * A US address rated with its ZIP code alone (api.md: a quote needs no state): the zone of most of the ZIP's first
 * digit's region (0–4 East, 5–7 Central, 8 Mountain, 9 Pacific). Coarse: Florida's and Tennessee's Central parts,
 * Nevada (8) and Alaska and Hawaii (9) are off.
 */
const US_ZONE_BY_ZIP_DIGIT = [ET, ET, ET, ET, ET, CT, CT, CT, MT, PT];

/** Countries of several zones that the table above does not split: where most of their shipping happens. */
const MAIN_ZONE: Record<string, string> = {
  US: ET,
  CA: "America/Toronto",
  AU: "Australia/Sydney",
  MX: "America/Mexico_City",
  BR: "America/Sao_Paulo",
  RU: "Europe/Moscow",
  ES: "Europe/Madrid",
  PT: "Europe/Lisbon",
  DE: "Europe/Berlin",
  CN: "Asia/Shanghai",
  NZ: "Pacific/Auckland",
  ID: "Asia/Jakarta",
  AR: "America/Argentina/Buenos_Aires",
  CL: "America/Santiago",
  EC: "America/Guayaquil",
  KZ: "Asia/Almaty",
  UA: "Europe/Kyiv",
  MY: "Asia/Kuala_Lumpur",
};

function zonesOf(country: string): string[] {
  try {
    const locale = new Intl.Locale(`und-${country}`) as Intl.Locale & {
      timeZones?: string[];
      getTimeZones?: () => string[];
    };
    return locale.getTimeZones?.() ?? locale.timeZones ?? [];
  } catch {
    return [];
  }
}

/** The IANA zone of an address's calendar (see the limits above). */
export function originTimeZone(
  address: Pick<Address, "country_code" | "state_code"> & { postal_code?: string },
): string {
  const country = address.country_code.toUpperCase();
  const state = address.state_code.trim().toUpperCase();
  const byState = ZONES_BY_STATE[country]?.[state];
  if (byState) return byState;
  const zipDigit = /^\d/.exec(address.postal_code?.trim() ?? "")?.[0];
  if (country === "US" && !state && zipDigit) return US_ZONE_BY_ZIP_DIGIT[Number(zipDigit)]!;
  if (MAIN_ZONE[country]) return MAIN_ZONE[country];
  const zones = zonesOf(country);
  return zones.length === 1 ? zones[0]! : "UTC";
}

const formatters = new Map<string, Intl.DateTimeFormat>();
// The last answer per zone, by the minute it is for: every zone's offset is whole minutes (since the 1970s), so the
// wall clock only changes on a minute boundary. formatToParts is the dearest step of rating with the sandbox, and a
// busy instance asks for the same zone and minute thousands of times.
const lastByZone = new Map<string, { minute: number; value: { date: string; time: string } }>();

/** Wall-clock date (`YYYY-MM-DD`) and time (`HH:MM`) of the instant in an IANA time zone, as carriers report. */
export function localDateTime(instant: Date, timeZone: string): { date: string; time: string } {
  const minute = Math.floor(instant.getTime() / 60_000);
  const last = lastByZone.get(timeZone);
  if (last?.minute === minute) return { ...last.value };
  const value = formatLocal(instant, timeZone);
  lastByZone.set(timeZone, { minute, value });
  return { ...value };
}

function formatLocal(instant: Date, timeZone: string): { date: string; time: string } {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    formatters.set(timeZone, f);
  }
  const parts: Record<string, string> = {};
  for (const p of f.formatToParts(instant)) parts[p.type] = p.value;
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

/** The wall clock in `timeZone` at `instant`: its date (`YYYY-MM-DD`) and minutes since midnight. */
export function localClock(instant: Date, timeZone: string): { date: string; minutes: number } {
  const { date, time } = localDateTime(instant, timeZone);
  return { date, minutes: Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5)) };
}

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

function isWeekend(date: string): boolean {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day === 0 || day === 6;
}

/** The first Monday-to-Friday on or after `date` (no holiday calendar). */
function businessDayFrom(date: string): string {
  let d = date;
  while (isWeekend(d)) d = addDays(d, 1);
  return d;
}

/** The daily cut-off when a connection names none: parcels handed over later leave on the next business day. */
export const DEFAULT_CUTOFF = "17:00";

/** A connection's `cutoff_time`: the carrier's daily cut-off at the origin, `HH:MM` on a 24-hour clock. */
export const cutoffTimeSchema = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be a local time of day, HH:MM (24-hour clock)");

/**
 * The date a carrier is told the parcel leaves: the request's date (today when it names none), moved to the next business day when it falls on
 * a weekend, or when it is today (in the origin's zone) and the carrier's daily cut-off (`HH:MM` local) has passed.
 */
export function carrierShipDate(shipDate: ShipDate, now: Date, cutoff: string = DEFAULT_CUTOFF): string {
  const local = localClock(now, shipDate.time_zone);
  const [h, m] = cutoff.split(":").map(Number);
  // A day already past is today, as FedEx's Ship API reads one (a stored shipment's date can pass before purchase).
  const date = shipDate.date === null || shipDate.date < local.date ? local.date : shipDate.date;
  const late = date === local.date && local.minutes >= h! * 60 + m!;
  return businessDayFrom(late ? addDays(date, 1) : date);
}

/** Whether `date` (`YYYY-MM-DD`) is before today in `timeZone`: a day the parcel can no longer leave on. */
export function isPastDate(date: string, now: Date, timeZone: string): boolean {
  return date < localClock(now, timeZone).date;
}
