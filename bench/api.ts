/**
 * API benchmark against a production build (`npm run bench`). Prints numbers; asserts nothing.
 *
 *  1. proxy rates with the sandbox at zero latency, concurrency 1 and 32, beside a trivial route on the same server;
 *  2. proxy rates across 3 sandbox connections that each take 200 ms: the fan-out should cost ~200 ms, not 600;
 *  3. proxy rates across a sandbox, UPS and FedEx (the last two through the carrier emulator), 200 ms each: the
 *     same fan-out over real wire formats, HTTP and OAuth (one token call per carrier, then cached).
 *
 * Env: BENCH_SECONDS (default 10 per run), PORT (default 3210), DATABASE_URL (optional; default embedded PGlite:
 * any database on a Postgres server, used to create and drop a fresh one for the run).
 */
import {
  benchShipmentBody,
  ensureBuild,
  printRows,
  run as runOnce,
  scratchDatabase,
  SECONDS,
  startServer,
  type Row,
} from "./server";
import { startCarrierEmulator } from "@/test/emulator";

const PORT = Number(process.env.PORT ?? 3210);

async function main() {
  ensureBuild();
  const scratch = process.env.DATABASE_URL ? scratchDatabase(process.env.DATABASE_URL) : null;
  const emulator = await startCarrierEmulator();
  emulator.set("ups", { latency_ms: 200 });
  emulator.set("fedex", { latency_ms: 200 });
  const server = await startServer({
    port: PORT,
    env: {
      CARRIER_EMULATOR_URL: emulator.url,
      ...(scratch ? { DATABASE_URL: scratch.url, ENCRYPTION_KEY: process.env.ENCRYPTION_KEY || "a".repeat(64) } : {}),
    },
  }).catch(async (err) => {
    scratch?.drop();
    await emulator.close();
    throw err;
  });
  const run = (scenario: string, connections: number, opts: { path: string; method?: "GET" | "POST"; body?: string }) =>
    runOnce(server.base, scenario, connections, { ...opts, headers: opts.method === "POST" ? server.headers : {} });
  try {
    const slow: string[] = [];
    for (const name of ["slow-a", "slow-b", "slow-c"]) {
      await server.api("POST", "/v1/connections", {
        carrier_name: "sandbox",
        carrier_id: name,
        config: { latency_ms: 200 },
      });
      slow.push(name);
    }
    await server.api("POST", "/v1/connections", {
      carrier_name: "ups",
      carrier_id: "ups-emulated",
      credentials: { client_id: "bench-client", client_secret: "bench-secret", account_number: "A1B2C3" },
    });
    await server.api("POST", "/v1/connections", {
      carrier_name: "fedex",
      carrier_id: "fedex-emulated",
      credentials: { api_key: "bench-key", secret_key: "bench-secret", account_number: "740561073" },
    });
    const mixed = benchShipmentBody(["slow-a", "ups-emulated", "fedex-emulated"]);
    const fast = benchShipmentBody(["sandbox"]);
    // Warm up the JIT and Next's route compilation.
    await run("warm-up", 8, { path: "/v1/proxy/rates", method: "POST", body: fast });

    const rows: Row[] = [];
    for (const c of [1, 32]) {
      rows.push(await run("GET /api/health (trivial)", c, { path: "/api/health" }));
      rows.push(
        await run("POST /v1/proxy/rates, 1 sandbox @0ms", c, { path: "/v1/proxy/rates", method: "POST", body: fast }),
      );
    }
    rows.push(
      await run("POST /v1/proxy/rates, 3 sandboxes @200ms", 1, {
        path: "/v1/proxy/rates",
        method: "POST",
        body: benchShipmentBody(slow),
      }),
    );
    rows.push(
      await run("POST /v1/proxy/rates, 3 sandboxes @200ms", 32, {
        path: "/v1/proxy/rates",
        method: "POST",
        body: benchShipmentBody(slow),
      }),
    );

    // The first call of each carrier also fetches its OAuth token; the runs below reuse it.
    await run("warm-up (tokens)", 1, { path: "/v1/proxy/rates", method: "POST", body: mixed });
    for (const c of [1, 32]) {
      rows.push(
        await run("POST /v1/proxy/rates, sandbox + UPS + FedEx @200ms", c, {
          path: "/v1/proxy/rates",
          method: "POST",
          body: mixed,
        }),
      );
    }

    const engine = process.env.DATABASE_URL ? "postgres" : "pglite";
    console.log(`\nShipwell API bench — production build, ${engine}, ${SECONDS}s per run, node ${process.version}\n`);
    printRows(rows);
    for (const c of [1, 32]) {
      const trivial = rows.find((r) => r.connections === c && r.scenario.startsWith("GET"))!;
      const rates = rows.find((r) => r.connections === c && r.scenario.includes("@0ms"))!;
      console.log(
        `rates/trivial at concurrency ${c}: throughput ${(rates.rps / trivial.rps).toFixed(2)}, p99 ${(rates.p99 / Math.max(1, trivial.p99)).toFixed(2)}`,
      );
    }
  } finally {
    await server.stop();
    await emulator.close();
    scratch?.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
