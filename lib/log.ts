import "server-only";
import pino, { type DestinationStream, type Logger } from "pino";
import { env } from "@/lib/env";

let root: Logger | null = null;
let destination: "stdout" | "stderr" | DestinationStream = "stdout";

/** The CLI keeps stdout for its answer (an id, a key) and sends logs to stderr. */
export function sendLogsToStderr(): void {
  destination = "stderr";
  root = null;
}

/** Tests read what was logged (test/log-privacy.test.ts). */
export function sendLogsTo(stream: DestinationStream): void {
  destination = stream;
  root = null;
}

/**
 * Structured JSON logs on stdout. Secrets and personal data never reach here: callers log ids, codes and redacted
 * shapes, and every error goes under the `err` key, where `errorForLog` decides what of it is written.
 */
export function log(): Logger {
  if (!root) {
    root = pino(
      {
        level: env().LOG_LEVEL,
        base: { service: "shipwell" },
        timestamp: pino.stdTimeFunctions.isoTime,
        serializers: { err: errorForLog },
        redact: {
          paths: ["*.authorization", "*.Authorization", "*.credentials", "*.password", "*.api_key"],
          censor: "[redacted]",
        },
      },
      typeof destination === "string"
        ? pino.destination({ fd: destination === "stderr" ? 2 : 1, sync: true })
        : destination,
    );
  }
  return root;
}

// What identifies an error without quoting data: SQLSTATE and the names of what it concerns, our own codes, system
// call failures. Postgres and PGlite name them `table`, postgres.js `table_name`: logged under one name either way.
const KEPT_FIELDS: Readonly<Record<string, string>> = {
  code: "code",
  severity: "severity",
  routine: "routine",
  constraint: "constraint",
  constraint_name: "constraint",
  table: "table",
  table_name: "table",
  column: "column",
  column_name: "column",
  schema: "schema",
  schema_name: "schema",
  dataType: "data_type",
  data_type_name: "data_type",
  errno: "errno",
  syscall: "syscall",
};
const MAX_MESSAGE = 300;
const MAX_FRAMES = 20;
const MAX_CAUSES = 3;

/**
 * Quoted literals out: Postgres quotes the value it refused (`invalid input syntax for type integer: "Jane"`) without
 * escaping the value's own quotes, and JSON.parse quotes the text it could not read. Greedy, first quote to last, so
 * a value holding quotes cannot leave a piece of itself outside them.
 */
function scrub(text: string): string {
  const cut = text
    .replace(/"[^]*"/, '"…"')
    .replace(/'[^]*'/, "'…'")
    .replace(/`[^]*`/, "`…`");
  return cut.length > MAX_MESSAGE ? `${cut.slice(0, MAX_MESSAGE)}…` : cut;
}

/**
 * The one way an error is written to the logs (pino's serializer for `err`): its kind, codes, the names of the
 * table, column and constraint involved, scrubbed messages and the stack's frames, down its `cause` chain. Never a
 * query, its parameters, Postgres's `detail` (the failing row, whole) or `where`, nor any other property: drivers and
 * libraries hang values and bodies on errors, and logs are shipped to third parties.
 */
export function errorForLog(err: unknown, depth = 0): Record<string, unknown> {
  if (typeof err !== "object" || err === null) return { type: typeof err, message: scrub(String(err)) };
  const e = err as Record<string, unknown> & { message?: unknown; stack?: unknown; name?: unknown };
  const sqlState = typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code) && typeof e.severity === "string";
  const named = typeof e.name === "string" && e.name.toLowerCase() !== "error" ? e.name : undefined;
  const type = sqlState ? "DatabaseError" : (named ?? e.constructor?.name ?? "Error");
  // drizzle's wrapper writes the statement and every parameter into its message; the driver's error is its cause.
  const text = String(e.message ?? "");
  const wrapsQuery = !sqlState && ("query" in e || "params" in e || "parameters" in e || /\nparams: /.test(text));
  const message = wrapsQuery ? "Failed query (statement and parameters withheld)" : scrub(text);
  const out: Record<string, unknown> = { type, message };
  for (const [key, as] of Object.entries(KEPT_FIELDS)) {
    const value = e[key];
    if (typeof value === "string" || typeof value === "number")
      out[as] = typeof value === "string" ? scrub(value) : value;
  }
  if (typeof e.stack === "string") {
    // The stack's first lines repeat the message; only the frames are kept, under the scrubbed message.
    const frames = e.stack.split("\n").filter((line) => /^\s+at /.test(line));
    out.stack = [`${type}: ${message}`, ...frames.slice(0, MAX_FRAMES)].join("\n");
  }
  if (e.cause !== undefined && depth < MAX_CAUSES) out.cause = errorForLog(e.cause, depth + 1);
  return out;
}

const isErrorLike = (value: unknown): value is object =>
  typeof value === "object" && value !== null && ("stack" in value || value instanceof Error);

/**
 * Next.js writes an error a page or route threw with console.error, whole: a database error's message carries its
 * statement and parameters (an email a clerk searched for), a driver's error the row it refused. From start-up on
 * (instrumentation.ts), a console.error or console.warn given an error writes one log line instead, the error by
 * errorForLog and the rest of the text scrubbed; calls without an error pass as before. Returns the undo.
 */
export function keepErrorsOutOfConsole(): () => void {
  const originals = { error: console.error, warn: console.warn };
  for (const level of ["error", "warn"] as const) {
    const original = originals[level];
    console[level] = (...args: unknown[]) => {
      const err = args.find(isErrorLike);
      if (err === undefined) return original.apply(console, args);
      const text = args
        .filter((arg) => !isErrorLike(arg))
        .map((arg) => (typeof arg === "string" ? arg : typeof arg))
        .join(" ");
      log()[level]({ msg: scrub(text.trim() || "uncaught error"), err });
    };
  }
  return () => Object.assign(console, originals);
}
