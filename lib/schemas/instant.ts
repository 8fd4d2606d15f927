import { z } from "zod";

// Four-digit years only (0001–9999): JavaScript also reads -200000 or +275760, which a timestamptz column cannot
// be compared with, and year 0 does not exist in Postgres's calendar.
const FIRST_INSTANT = new Date("0001-01-01T00:00:00Z").getTime();
const LAST_INSTANT = new Date("9999-12-31T23:59:59.999Z").getTime();

/** A `created_after`-style query value: an ISO 8601 date or timestamp. */
export const instant = z
  .string()
  .trim()
  .max(40)
  .refine((v) => !Number.isNaN(Date.parse(v)), "must be a date or timestamp (ISO 8601)")
  .transform((v) => new Date(v))
  .refine(
    (d) => d.getTime() >= FIRST_INSTANT && d.getTime() <= LAST_INSTANT,
    "must be a date between the years 0001 and 9999",
  );
