import { z } from "zod";

// Four-digit years only (0001–9999): JavaScript also reads -200000 or +275760, which a timestamptz column cannot
// be compared with, and year 0 does not exist in Postgres's calendar.
const FIRST_INSTANT = new Date("0001-01-01T00:00:00Z").getTime();
const LAST_INSTANT = new Date("9999-12-31T23:59:59.999Z").getTime();

// `2026-11-23`, `2026-11-23T10:00`, `2026-11-23T10:00:00.123Z`, `…+01:00`: Date.parse alone also takes
// "2020-01-01 junk" or "March 7", and rolls 2020-02-30 over into March.
const ISO_8601 = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;
const WITHOUT_OFFSET = /[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?$/i;
const realDay = (v: string) => {
  const [y, m, d] = v.slice(0, 10).split("-").map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  return day.getUTCMonth() === m - 1 && day.getUTCDate() === d;
};

/** A `created_after`-style query value: an ISO 8601 date or timestamp. */
export const instant = z
  .string()
  .trim()
  .max(40)
  .refine(
    (v) => ISO_8601.test(v) && realDay(v) && !Number.isNaN(Date.parse(v)),
    "must be a date or timestamp (ISO 8601)",
  )
  // Every timestamp here is UTC (docs/api.md, "Conventions"), and a date alone is read as UTC midnight: a time without
  // an offset is UTC too, not the server's own zone (Date reads it as local time, so TZ would move the filter).
  .transform((v) => new Date(WITHOUT_OFFSET.test(v) ? `${v}Z` : v))
  .refine(
    (d) => d.getTime() >= FIRST_INSTANT && d.getTime() <= LAST_INSTANT,
    "must be a date between the years 0001 and 9999",
  );
