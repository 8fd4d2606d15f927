/**
 * What the benchmarks share: a production build, a `next start` server on its own port with a bootstrap API key,
 * and autocannon runs reduced to one table row. Prints numbers; asserts nothing.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import autocannon from "autocannon";

export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

/** The body every bench rates or ships with: Chicago to Austin, one parcel, the given connections. */
const PLACES = {
  chicago: {
    address_line1: "500 Industrial Way",
    city: "Chicago",
    state_code: "IL",
    postal_code: "60607",
    country_code: "US",
  },
  austin: { address_line1: "12 Elm St", city: "Austin", state_code: "TX", postal_code: "78701", country_code: "US" },
  toronto: {
    address_line1: "220 Yonge St",
    city: "Toronto",
    state_code: "ON",
    postal_code: "M5B2H1",
    country_code: "CA",
  },
} as const;

/**
 * A parcel to rate: Chicago → Austin by default; `route` picks a border crossing, so that carriers that ship from one
 * country only (USPS from the United States, Canada Post from Canada) reach their wire. A crossing adds the customs a
 * purchase would need; rating does not ask for it.
 */
export const benchShipmentBody = (carrier_ids: string[], route: "domestic" | "us-ca" | "ca-us" = "domestic") =>
  JSON.stringify({
    shipper: route === "ca-us" ? PLACES.toronto : PLACES.chicago,
    recipient: { ...(route === "us-ca" ? PLACES.toronto : PLACES.austin), residential: true },
    parcels: [{ weight: 2.5, weight_unit: "KG", length: 30, width: 20, height: 15, dimension_unit: "CM" }],
    carrier_ids,
  });

export interface ScratchDatabase {
  name: string;
  url: string;
  drop: () => void;
}

/** A fresh database `shipwell_bench_<random>` on the server of `adminUrl`, so every run starts empty; drop() at the end. */
export function scratchDatabase(adminUrl: string): ScratchDatabase {
  const name = "shipwell_bench_" + randomBytes(6).toString("hex");
  const database = (action: "create" | "drop") => {
    const r = spawnSync(process.execPath, ["scripts/pg-database.mjs", action, adminUrl, name], { stdio: "inherit" });
    if (r.status !== 0) throw new Error(`could not ${action} database ${name}`);
  };
  database("create");
  const url = new URL(adminUrl);
  url.pathname = "/" + name;
  return { name, url: url.toString(), drop: () => database("drop") };
}

/** Builds the app when there is no production build yet (`npm run build`, output shown). */
export function ensureBuild(): void {
  if (existsSync(".next/BUILD_ID")) return;
  console.log("No production build found; running `npm run build` first…");
  const build = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

export interface BenchServer {
  base: string;
  key: string;
  /** Authorization and JSON content type, for fetch and autocannon alike. */
  headers: Record<string, string>;
  /** JSON call with the bench key; throws on a non-2xx answer with its body. */
  api: (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>;
  stop: () => Promise<void>;
}

async function listening(base: string): Promise<boolean> {
  try {
    return (await fetch(`${base}/api/health`)).ok;
  } catch {
    return false;
  }
}

async function waitUntilUp(base: string, child: ChildProcess, deadline: number) {
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`server exited early (${child.exitCode ?? child.signalCode})`);
    if (await listening(base)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("server did not start");
}

/**
 * `next start -p port` in its own process group, with a fresh bootstrap key, a temporary DATA_DIR and no rate
 * limit; `env` adds to or overrides the variables (e.g. DATABASE_URL). Resolves once /api/health answers.
 */
export async function startServer({
  port,
  env = {},
  nodeArgs,
}: {
  port: number;
  env?: Record<string, string>;
  /** Node.js flags for the server (`--cpu-prof`, which NODE_OPTIONS may not carry): run without npx then. */
  nodeArgs?: string[];
}): Promise<BenchServer> {
  const base = `http://127.0.0.1:${port}`;
  // Another server on the port would answer /api/health and be measured instead of ours.
  if (await listening(base)) throw new Error(`port ${port} is already in use; set PORT to a free one`);
  const key = "bench-" + randomBytes(16).toString("hex");
  const headers = { Authorization: `Token ${key}`, "Content-Type": "application/json" };
  const dataDir = mkdtempSync(join(tmpdir(), "shipwell-bench-"));
  const [command, args] = nodeArgs
    ? [process.execPath, [...nodeArgs, "node_modules/next/dist/bin/next", "start", "-p", String(port)]]
    : ["npx", ["next", "start", "-p", String(port)]];
  const server = spawn(command, args, {
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: "1",
      DATA_DIR: dataDir,
      BOOTSTRAP_API_KEY: key,
      RATE_LIMIT_PER_MINUTE: "100000000",
      LOG_LEVEL: "warn",
      // On a loaded machine a connection can take longer than the default 500 ms, which would open the circuit
      // (503s); the benches measure throughput, not outages.
      DATABASE_CONNECT_TIMEOUT_MS: "5000",
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (server.pid && server.exitCode === null && server.signalCode === null) {
      try {
        process.kill(-server.pid, "SIGTERM");
      } catch {
        // already gone
      }
      const timeout = new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 5000).unref());
      if ((await Promise.race([exited, timeout])) === "timeout") {
        try {
          process.kill(-server.pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
    }
    await new Promise((r) => setTimeout(r, 500));
    rmSync(dataDir, { recursive: true, force: true });
  };
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(base + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  try {
    await waitUntilUp(base, server, Date.now() + 60_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return { base, key, headers, api, stop };
}

/** Nearest-rank percentile of an ascending array, in ms. */
export function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export interface Row {
  scenario: string;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/** One autocannon run of SECONDS (or `seconds`) against one request. */
export async function run(
  base: string,
  scenario: string,
  connections: number,
  opts: { path: string; method?: "GET" | "POST"; body?: string; headers?: Record<string, string>; seconds?: number },
): Promise<Row> {
  const result = await autocannon({
    url: base + opts.path,
    method: opts.method ?? "GET",
    headers: opts.headers ?? {},
    body: opts.body,
    connections,
    duration: opts.seconds ?? SECONDS,
  });
  const errors = result.errors + result.timeouts + result.non2xx;
  return {
    scenario,
    connections,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors,
  };
}

/** The fixed-width table `npm run bench` has always printed. */
export function printRows(rows: Row[], width = 44): void {
  console.log(
    "scenario".padEnd(width) +
      "conc".padStart(5) +
      "req/s".padStart(10) +
      "p50 ms".padStart(9) +
      "p99 ms".padStart(9) +
      "errors".padStart(8),
  );
  for (const r of rows) {
    console.log(
      r.scenario.padEnd(width) +
        String(r.connections).padStart(5) +
        r.rps.toFixed(0).padStart(10) +
        String(r.p50).padStart(9) +
        String(r.p99).padStart(9) +
        String(r.errors).padStart(8),
    );
  }
}
