/**
 * Statements per request, for the benches' profile sections: a server (or the bench's own process) started with
 * DATABASE_STATEMENT_LOG=<file> appends each statement's SQL text to the file as it is sent (lib/db/client.ts), so a
 * bench that sends one request at a time reads what that request cost in statements. On Postgres each statement is
 * one round trip (postgres.js sends them one by one within a transaction, `begin` and `commit` included); on PGlite
 * drizzle's logger sees the statements but not `begin`/`commit`. Prints nothing itself; asserts nothing.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
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

/** The statement without its parenthesized parts: a select's own FROM, not one of its subqueries'. */
function outermost(text: string): string {
  let t = text;
  for (let inner = t.replace(/\([^()]*\)/g, ""); inner !== t; inner = t.replace(/\([^()]*\)/g, "")) t = inner;
  return t;
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
          : verb === "select"
            ? /\bfrom\s+("?[\w.]+"?)/i.exec(outermost(t))?.[1]
            : verb === "with"
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

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
  endTime: number;
  startTime: number;
}

/** Each sample's node and duration (µs), only those of the profile's last `lastMs` (the load, not the start-up). */
function samplesOf(file: string, lastMs: number) {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const nodeById = new Map(profile.nodes.map((x) => [x.id, x]));
  const from = profile.endTime - lastMs * 1000;
  let t = profile.startTime;
  return profile.samples.flatMap((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    t += dt;
    return t >= from ? [{ frame: nodeById.get(id)!.callFrame, dt }] : [];
  });
}

/** Where a sampled function's code lives, by its file. */
function bucketOf(url: string, fn: string): string {
  if (!url) return fn === "(garbage collector)" ? "garbage collection" : fn === "(idle)" ? "idle" : "native / V8";
  if (url.startsWith("node:")) return "Node.js";
  const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg === "next") return "Next.js";
  if (pkg) return pkg;
  if (url.includes("/.next/server/chunks/")) return "bundled server code (ours, zod, drizzle, …)";
  return "other";
}

/**
 * The CPU profile (`node --cpu-prof`) of its last `lastMs` as shares of the busy time by where the code lives,
 * biggest first: "Next.js 31 %, bundled server code 24 %, …". Idle time is left out.
 */
export function cpuSummary(file: string, lastMs: number, top = 8): string {
  const time = new Map<string, number>();
  let busy = 0;
  for (const { frame, dt } of samplesOf(file, lastMs)) {
    const bucket = bucketOf(frame.url, frame.functionName);
    if (bucket === "idle") continue;
    busy += dt;
    time.set(bucket, (time.get(bucket) ?? 0) + dt);
  }
  return [...time]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([bucket, t]) => `${bucket} ${Math.round((t / busy) * 100)} %`)
    .join(", ");
}

/** The functions with the most self time in the profile's last `lastMs`, with where they live: "fn (bucket) 4.1 %". */
export function topFunctions(file: string, lastMs: number, n = 12): string[] {
  const time = new Map<string, number>();
  let busy = 0;
  for (const { frame, dt } of samplesOf(file, lastMs)) {
    const { functionName, url } = frame;
    if (functionName === "(idle)") continue;
    busy += dt;
    const key = `${functionName || "(anonymous)"} (${bucketOf(url, functionName)})`;
    time.set(key, (time.get(key) ?? 0) + dt);
  }
  return [...time]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([key, t]) => `${key} ${((t / busy) * 100).toFixed(1)} %`);
}

/** The biggest `.cpuprofile` in `dir` (the server's, beside npx's own), or null. */
export function biggestProfile(dir: string): string | null {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".cpuprofile"))
    .map((f) => join(dir, f));
  return files.sort((a, b) => statSync(b).size - statSync(a).size)[0] ?? null;
}
