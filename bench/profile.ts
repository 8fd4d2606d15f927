/**
 * Statements per request, for the benches' profile sections: a server (or the bench's own process) started with
 * DATABASE_STATEMENT_LOG=<file> appends each statement's SQL text to the file as it is sent (lib/db/client.ts), so a
 * bench that sends one request at a time reads what that request cost in statements. On Postgres each statement is
 * one round trip (postgres.js sends them one by one within a transaction, `begin` and `commit` included); on PGlite
 * drizzle's logger sees the statements but not `begin`/`commit`. Prints nothing itself; asserts nothing.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface StatementLog {
  path: string;
  /** Statements sent since the log was opened (a mark for `since`). */
  mark: () => number;
  /** The statements sent since `mark`. */
  since: (mark: number) => string[];
  remove: () => void;
}

export function statementLog(): StatementLog {
  const dir = mkdtempSync(join(tmpdir(), "shipwell-statements-"));
  const path = join(dir, "statements.log");
  writeFileSync(path, "");
  const lines = () => readFileSync(path, "utf8").split("\n").slice(0, -1);
  return {
    path,
    mark: () => lines().length,
    since: (mark) => lines().slice(mark),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** `select`, `insert into "labels"`, `update "shipments"`, `begin`…: what a statement does and to which table. */
export function statementKind(text: string): string {
  const t = text.trim();
  const verb = (/^\w+/.exec(t)?.[0] ?? "?").toLowerCase();
  const table =
    verb === "insert"
      ? /^insert into\s+("?[\w.]+"?)/i.exec(t)?.[1]
      : verb === "update"
        ? /^update\s+("?[\w.]+"?)/i.exec(t)?.[1]
        : verb === "delete"
          ? /^delete from\s+("?[\w.]+"?)/i.exec(t)?.[1]
          : verb === "select" || verb === "with"
            ? /\bfrom\s+("?[\w.]+"?)/i.exec(t)?.[1]
            : undefined;
  return table ? `${verb} ${table.replaceAll('"', "")}` : verb;
}

/**
 * "14 statements: begin, select shipments ×2, …" for one request's statements, in the order first sent; with
 * `perRequest` the counts are averages over that many requests.
 */
export function statementSummary(statements: string[], perRequest = 1): string {
  const counts = new Map<string, number>();
  for (const s of statements) {
    const kind = statementKind(s);
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  const n = (x: number) => (Number.isInteger(x / perRequest) ? String(x / perRequest) : (x / perRequest).toFixed(1));
  const parts = [...counts].map(([kind, c]) => (c === perRequest ? kind : `${kind} ×${n(c)}`));
  return `${n(statements.length)} statements: ${parts.join(", ")}`;
}
