import "server-only";
import pino, { type Logger } from "pino";
import { env } from "@/lib/env";

let root: Logger | null = null;
let toStderr = false;

/** The CLI keeps stdout for its answer (an id, a key) and sends logs to stderr. */
export function sendLogsToStderr(): void {
  toStderr = true;
  root = null;
}

/** Structured JSON logs on stdout. Secrets never reach here: callers log ids and redacted shapes only. */
export function log(): Logger {
  if (!root) {
    root = pino(
      {
        level: env().LOG_LEVEL,
        base: { service: "shipwell" },
        timestamp: pino.stdTimeFunctions.isoTime,
        redact: {
          paths: ["*.authorization", "*.Authorization", "*.credentials", "*.password", "*.api_key"],
          censor: "[redacted]",
        },
      },
      pino.destination({ fd: toStderr ? 2 : 1, sync: true }),
    );
  }
  return root;
}
