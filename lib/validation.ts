import type { z } from "zod";
import type { FieldProblem } from "@/lib/errors";

/** How much of a client's text an error message or field path repeats (docs/api.md, "Requests"). */
const EXCERPT_LENGTH = 40;

// A UTF-16 half without its other half: not Unicode, and Postgres cannot store it.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, "g");

/**
 * A short, well-formed excerpt of a client's text for a message: NUL characters and lone surrogates become U+FFFD,
 * and anything past 40 characters becomes an ellipsis, so an answer never repeats a hostile input whole.
 */
export function excerpt(text: string, max = EXCERPT_LENGTH): string {
  const clean = text.replaceAll("\u0000", "\ufffd").replace(LONE_SURROGATES, "\ufffd");
  if (clean.length <= max) return clean;
  // Never cut a surrogate pair in two.
  const end = /[\ud800-\udbff]/.test(clean.charAt(max - 2)) ? max - 2 : max - 1;
  return `${clean.slice(0, end)}…`;
}

/** `["parcels", 0, "weight"]` → `parcels[0].weight` (docs/api.md, "Errors"); a client's key names as excerpts. */
export function fieldPath(path: ReadonlyArray<PropertyKey>, prefix = ""): string | null {
  let out = prefix;
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${excerpt(String(part))}` : excerpt(String(part));
  }
  return out || null;
}

const withArticle = (noun: string) => `${/^[aeiou]/.test(noun) ? "an" : "a"} ${noun}`;

/** What zod expected, in our words ("record" is how zod names a free-form object). */
const EXPECTED: Record<string, string> = { record: "object", int: "whole number" };

function typeOfInput(input: unknown): string {
  if (Array.isArray(input)) return "array";
  return typeof input;
}

function describe(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_type": {
      // The input is on the issue only when the parse asked for it (parseInput below); absent means absent.
      if (issue.input === undefined) return "is required";
      if (issue.input === null) return "must not be null";
      const expected = Object.hasOwn(EXPECTED, issue.expected) ? EXPECTED[issue.expected]! : issue.expected;
      if (issue.expected === "int" && typeof issue.input === "number") return "must be a whole number";
      return `expected ${withArticle(expected)}, received ${withArticle(typeOfInput(issue.input))}`;
    }
    case "too_small":
      if (issue.origin === "string")
        return issue.minimum === 1 ? "must not be empty" : `must be at least ${issue.minimum} characters`;
      if (issue.origin === "array") return `must have at least ${issue.minimum} item${issue.minimum === 1 ? "" : "s"}`;
      return issue.inclusive ? `must be at least ${issue.minimum}` : `must be greater than ${issue.minimum}`;
    case "too_big":
      if (issue.origin === "string") return `must be at most ${issue.maximum} characters`;
      if (issue.origin === "array") return `must have at most ${issue.maximum} items`;
      return issue.inclusive ? `must be at most ${issue.maximum}` : `must be less than ${issue.maximum}`;
    case "invalid_value":
      return `must be one of: ${issue.values.map((v) => excerpt(String(v))).join(", ")}`;
    case "unrecognized_keys": {
      const shown = issue.keys.slice(0, 5).map((k) => excerpt(k));
      const more = issue.keys.length > shown.length ? ` and ${issue.keys.length - shown.length} more` : "";
      return `has unknown key${issue.keys.length === 1 ? "" : "s"}: ${shown.join(", ")}${more}`;
    }
    case "invalid_format":
      return `must be a valid ${issue.format}`;
    default:
      return excerpt(issue.message, 200);
  }
}

function issuesToProblems(issues: z.core.$ZodIssue[], prefix = ""): FieldProblem[] {
  return issues.flatMap((issue): FieldProblem[] => {
    // Unknown keys are reported on each key itself so a client sees which fields to remove (the first 20).
    if (issue.code === "unrecognized_keys") {
      return issue.keys.slice(0, 20).map((key) => ({
        message: "is not a known field",
        field: fieldPath([...issue.path, key], prefix),
      }));
    }
    // Messages a schema wrote itself ("must be a two-letter country code") beat the generic ones.
    const own = /^(must|is|has) /.test(issue.message);
    return [{ message: own ? issue.message : describe(issue), field: fieldPath(issue.path, prefix) }];
  });
}

/**
 * The one way a request's input is checked against a schema: zod leaves the received value off its issues unless
 * asked, and without it a type error could not say what it received ("expected a number, received a string").
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  prefix = "",
): { ok: true; data: z.output<S> } | { ok: false; problems: FieldProblem[] } {
  // Asking zod to keep the input on its issues makes every parse dearer (a third, on a proxy rates body), and only a
  // failed one reads them: a valid input is parsed once, a failed one again with the input kept for the messages.
  const parsed = schema.safeParse(input);
  if (parsed.success) return { ok: true, data: parsed.data };
  const explained = schema.safeParse(input, { reportInput: true });
  return { ok: false, problems: issuesToProblems((explained.error ?? parsed.error).issues, prefix) };
}

/** Deeper than this, a request body is refused before anything reads it (the bounded objects allow 8 levels). */
const MAX_INPUT_DEPTH = 32;
/** A body full of bad strings answers this many problems, not one per string. */
const MAX_INPUT_PROBLEMS = 20;

/** Why a string cannot be stored or passed on, or null. NUL: Postgres text and jsonb cannot hold it. */
function textFault(text: string): "NUL" | "surrogate" | null {
  if (text.includes("\u0000")) return "NUL";
  if (LONE_SURROGATE.test(text)) return "surrogate";
  return null;
}

const VALUE_FAULT = {
  NUL: "must not contain a NUL character (\\u0000)",
  surrogate: "must be valid Unicode (it holds a lone surrogate)",
} as const;
const KEY_FAULT = {
  NUL: "has a name with a NUL character (\\u0000)",
  surrogate: "has a name that is not valid Unicode (a lone surrogate)",
} as const;

/**
 * docs/api.md, "Requests": every string and object key of a parsed request (body, query or path) is text we can
 * store, and the whole is at most 32 levels deep. Walked with a stack, not recursion, so a body nested 100 000
 * levels deep is refused instead of overflowing the call stack; problems name the field where they are.
 */
export function rawInputProblems(input: unknown): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const stack: { value: unknown; path: PropertyKey[] }[] = [{ value: input, path: [] }];
  while (stack.length > 0 && problems.length < MAX_INPUT_PROBLEMS) {
    const { value, path } = stack.pop()!;
    if (typeof value === "string") {
      const fault = textFault(value);
      if (fault) problems.push({ message: VALUE_FAULT[fault], field: fieldPath(path) });
      continue;
    }
    // JSON.parse reads 1e309 as Infinity, which JSON cannot write back (it would be stored as null).
    if (typeof value === "number" && !Number.isFinite(value)) {
      problems.push({ message: "must be a finite number", field: fieldPath(path) });
      continue;
    }
    if (typeof value !== "object" || value === null) continue;
    if (path.length >= MAX_INPUT_DEPTH) {
      problems.push({ message: `is nested too deeply (at most ${MAX_INPUT_DEPTH} levels)`, field: fieldPath(path) });
      continue;
    }
    const entries: [PropertyKey, unknown][] = Array.isArray(value)
      ? value.map((v, i) => [i, v])
      : Object.entries(value as Record<string, unknown>);
    const children: { value: unknown; path: PropertyKey[] }[] = [];
    for (const [key, child] of entries) {
      const fault = typeof key === "string" ? textFault(key) : null;
      if (fault) problems.push({ message: KEY_FAULT[fault], field: fieldPath([...path, key]) });
      else children.push({ value: child, path: [...path, key] });
    }
    // Pushed in reverse, so the children are visited in the order of the document.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return problems.slice(0, MAX_INPUT_PROBLEMS);
}
