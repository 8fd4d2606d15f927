import { z } from "zod";

export const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => (v === undefined ? null : v));

export const requiredText = (max: number) => z.string().trim().min(1, "must not be empty").max(max);

/** docs/api.md, "Conventions": `YYYY-MM-DD HH:MM:SS.ffffff+00:00`, always UTC (written by lib/timestamp.ts). */
export const Timestamp = z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/);

/** A tracking number as carriers print it, with spaces dropped and letters upper-cased. */
export const TrackingNumber = z
  .string()
  // Next.js has already percent-decoded path segments once; decoding again would choke on a literal "%".
  .transform((v) => v.replace(/\s+/g, "").toUpperCase())
  .pipe(z.string().regex(/^[A-Z0-9-]{4,64}$/, "must be 4 to 64 letters, digits or dashes"));
