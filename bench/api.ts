/**
 * API benchmark against a production build (`npm run bench`). Prints numbers; asserts nothing.
 *
 *  1. proxy rates with the sandbox at zero latency, concurrency 1 and 32, beside a trivial route on the same server;
 *  2. proxy rates across 3 sandbox connections that each take 200 ms: the fan-out should cost ~200 ms, not 600.
 *
 * Env: BENCH_SECONDS (default 10 per run), PORT (default 3210), DATABASE_URL (optional; default embedded PGlite).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import autocannon from "autocannon";

const PORT = Number(process.env.PORT ?? 3210);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const BASE = `http://127.0.0.1:${PORT}`;
const KEY = "bench-" + randomBytes(16).toString("hex");

const rateBody = (carrier_ids: string[]) =>
  JSON.stringify({
    shipper: { address_line1: "500 Industrial Way", city: "Chicago", state_code: "IL", postal_code: "60607", country_code: "US" },
    recipient: { address_line1: "12 Elm St", city: "Austin", state_code: "TX", postal_code: "78701", country_code: "US", residential: true },
    parcels: [{ weight: 2.5, weight_unit: "KG", length: 30, width: 20, height: 15, dimension_unit: "CM" }],
    carrier_ids,
  });

const headers = { Authorization: `Token ${KEY}`, "Content-Type": "application/json" };

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(BASE + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${await res.text()}`);
  return res.json() as Promise<Record<string, unknown>>;
}

async function waitUntilUp(deadline: number) {
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${BASE}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("server did not start");
}

interface Row {
  scenario: string;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function run(scenario: string, connections: number, opts: { path: string; method?: "GET" | "POST"; body?: string }): Promise<Row> {
  const result = await autocannon({
    url: BASE + opts.path,
    method: opts.method ?? "GET",
    headers: opts.method === "POST" ? headers : {},
    body: opts.body,
    connections,
    duration: SECONDS,
  });
  const errors = result.errors + result.timeouts + result.non2xx;
  return { scenario, connections, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors };
}

async function main() {
  if (!existsSync(".next/BUILD_ID")) {
    console.log("No production build found; running `npm run build` first…");
    const build = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  const dataDir = mkdtempSync(join(tmpdir(), "shipwell-bench-"));
  const server = spawn("npx", ["next", "start", "-p", String(PORT)], {
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: "1",
      DATA_DIR: dataDir,
      BOOTSTRAP_API_KEY: KEY,
      RATE_LIMIT_PER_MINUTE: "100000000",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  try {
    await waitUntilUp(Date.now() + 60_000);
    const slow: string[] = [];
    for (const name of ["slow-a", "slow-b", "slow-c"]) {
      await api("POST", "/v1/connections", { carrier_name: "sandbox", carrier_id: name, config: { latency_ms: 200 } });
      slow.push(name);
    }
    const fast = rateBody(["sandbox"]);
    // Warm up the JIT and Next's route compilation.
    await run("warm-up", 8, { path: "/v1/proxy/rates", method: "POST", body: fast });

    const rows: Row[] = [];
    for (const c of [1, 32]) {
      rows.push(await run("GET /api/health (trivial)", c, { path: "/api/health" }));
      rows.push(await run("POST /v1/proxy/rates, 1 sandbox @0ms", c, { path: "/v1/proxy/rates", method: "POST", body: fast }));
    }
    rows.push(await run("POST /v1/proxy/rates, 3 sandboxes @200ms", 1, { path: "/v1/proxy/rates", method: "POST", body: rateBody(slow) }));
    rows.push(await run("POST /v1/proxy/rates, 3 sandboxes @200ms", 32, { path: "/v1/proxy/rates", method: "POST", body: rateBody(slow) }));

    const engine = process.env.DATABASE_URL ? "postgres" : "pglite";
    console.log(`\nShipwell API bench — production build, ${engine}, ${SECONDS}s per run, node ${process.version}\n`);
    console.log("scenario".padEnd(44) + "conc".padStart(5) + "req/s".padStart(10) + "p50 ms".padStart(9) + "p99 ms".padStart(9) + "errors".padStart(8));
    for (const r of rows) {
      console.log(
        r.scenario.padEnd(44) +
          String(r.connections).padStart(5) +
          r.rps.toFixed(0).padStart(10) +
          String(r.p50).padStart(9) +
          String(r.p99).padStart(9) +
          String(r.errors).padStart(8),
      );
    }
    for (const c of [1, 32]) {
      const trivial = rows.find((r) => r.connections === c && r.scenario.startsWith("GET"))!;
      const rates = rows.find((r) => r.connections === c && r.scenario.includes("@0ms"))!;
      console.log(`ratio rates/trivial throughput at concurrency ${c}: ${(rates.rps / trivial.rps).toFixed(2)}`);
    }
  } finally {
    if (server.pid) process.kill(-server.pid, "SIGTERM");
    await new Promise((r) => setTimeout(r, 500));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
