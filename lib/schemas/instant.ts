import { z } from "zod";

/** A `created_after`-style query value: an ISO 8601 date or timestamp. */
export const instant = z
  .string()
  .trim()
  .refine((v) => !Number.isNaN(Date.parse(v)), "must be a date or timestamp (ISO 8601)")
  .transform((v) => new Date(v));
