import { z } from "zod";
import { LABEL_TYPES } from "@/lib/carriers/types";

/** docs/api.md, "Requests": `""` (or only spaces) and `null` mean the field was not given; stored and answered as null. */
export const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => v || null);

export const requiredText = (max: number) => z.string().trim().min(1, "must not be empty").max(max);

/**
 * Optional text the interface types as a plain string (`state_code`, a rating address's `city` and
 * `address_line1`): not given is `""`, never null.
 */
export const blankText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => v ?? "");

/**
 * A state or province code, upper-cased, `""` when not given. Its length is held after upper-casing too: some letters
 * upper-case to several (ß to SS, ﬃ to FFI), and ten of them would be stored as thirty.
 */
export const stateCode = blankText(10)
  .transform((v) => v.toUpperCase())
  .pipe(z.string().max(10));

/** A formatted optional value (an email, a currency) where `""` is not given, like `null`. */
export const blankIsNull = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? null : v), schema.nullish());

/**
 * docs/api.md, "Requests": `null` for an optional list or object is the same as leaving it out. `empty` makes a new
 * value per request, so no request can change another's.
 */
export const orEmpty = <T extends z.ZodType>(schema: T, empty: () => z.output<T>) =>
  schema.nullish().transform((v): z.output<T> => v ?? empty());

/** `PDF`, `ZPL` or `PNG`, in any case. */
export const labelType = z.preprocess((v) => (typeof v === "string" ? v.toUpperCase() : v), z.enum(LABEL_TYPES));

/** `carrier_ids`: connections by `carrier_id` (at most 64 characters) or `car_` id; absent, null or [] is all of them. */
export const CarrierIds = orEmpty(z.array(z.string().trim().min(1).max(64)).max(50), () => []).describe(
  "Connections to use, by carrier_id or car_ id (all active connections when absent, null or empty)",
);

/** Service codes to restrict rating to (e.g. `SBX_GROUND`); absent, null or [] is every service. */
export const ServiceCodes = orEmpty(z.array(z.string().trim().min(1).max(100)).max(50), () => []).describe(
  "Service codes to rate (every service when absent, null or empty)",
);

/** docs/api.md, "Requests" (bounded objects): the limits of every free-form object a client sends. */
const OBJECT_LIMITS = { depth: 8, keys: 200, kilobytes: 32, stringBytes: 4096 } as const;

/** UTF-8 bytes of a string, without encoding it. */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

interface BoundsProblem {
  path: PropertyKey[];
  message: string;
}

/**
 * What is wrong with a free-form object, walked with a stack (no recursion): nesting deeper than 8 keys or indexes
 * (reported on the first key too deep), more than 200 keys in all, a string or key over 4 KB, a key named
 * `__proto__` (JavaScript clients would read it as the object's prototype), more than 32 KB as JSON.
 */
function boundsProblems(root: Record<string, unknown>): BoundsProblem[] {
  const problems: BoundsProblem[] = [];
  const tooLong = `must be at most ${OBJECT_LIMITS.stringBytes} bytes`;
  let keys = 0;
  const stack: { value: unknown; path: PropertyKey[] }[] = [{ value: root, path: [] }];
  while (stack.length > 0 && problems.length < 20) {
    const { value, path } = stack.pop()!;
    if (path.length > OBJECT_LIMITS.depth) {
      problems.push({ path, message: `is nested too deeply (at most ${OBJECT_LIMITS.depth} levels)` });
      continue;
    }
    if (typeof value === "string") {
      if (utf8Length(value) > OBJECT_LIMITS.stringBytes) problems.push({ path, message: tooLong });
      continue;
    }
    if (typeof value !== "object" || value === null) continue;
    if (Array.isArray(value)) {
      value.forEach((item, i) => stack.push({ value: item, path: [...path, i] }));
      continue;
    }
    for (const [key, child] of Object.entries(value)) {
      keys++;
      if (key === "__proto__") problems.push({ path: [...path, key], message: "is not an allowed key name" });
      else if (utf8Length(key) > OBJECT_LIMITS.stringBytes) {
        problems.push({ path: [...path, key], message: `has a name longer than ${OBJECT_LIMITS.stringBytes} bytes` });
      } else stack.push({ value: child, path: [...path, key] });
    }
  }
  if (keys > OBJECT_LIMITS.keys)
    problems.push({ path: [], message: `must have at most ${OBJECT_LIMITS.keys} keys in all` });
  // Only measured once the walk found it shallow: serializing deep nesting is what overflows the stack.
  if (problems.length === 0 && utf8Length(JSON.stringify(root)) > OBJECT_LIMITS.kilobytes * 1024) {
    problems.push({ path: [], message: `must be at most ${OBJECT_LIMITS.kilobytes} KB as JSON` });
  }
  return problems;
}

/**
 * A free-form JSON object (`customs`, a rate's `meta`, a connection's `config` and `credentials`), stored
 * and echoed as given within OBJECT_LIMITS. Checked before zod copies it, because the copy drops a `__proto__` key.
 */
export const bounded = <T extends z.ZodType>(inner: T) =>
  z.preprocess((value, ctx) => {
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      for (const p of boundsProblems(value as Record<string, unknown>)) {
        ctx.addIssue({ code: "custom", path: p.path, message: p.message, input: value });
      }
    }
    return value;
  }, inner);

export const boundedObject = bounded(z.record(z.string(), z.unknown())).describe(
  `A JSON object: at most ${OBJECT_LIMITS.depth} levels deep, ${OBJECT_LIMITS.keys} keys in all, ` +
    `${OBJECT_LIMITS.kilobytes} KB as JSON, strings and key names up to ${OBJECT_LIMITS.stringBytes} bytes`,
);

/** docs/api.md, "Conventions": `YYYY-MM-DD HH:MM:SS.ffffff+00:00`, always UTC (written by lib/timestamp.ts). */
export const Timestamp = z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/);

/** A tracking number as carriers print it, with spaces dropped and letters upper-cased. */
export const TrackingNumber = z
  .string()
  // Next.js has already percent-decoded path segments once; decoding again would choke on a literal "%".
  .transform((v) => v.replace(/\s+/g, "").toUpperCase())
  .pipe(z.string().regex(/^[A-Z0-9-]{4,64}$/, "must be 4 to 64 letters, digits or dashes"));
