/**
 * Managed shipments benchmark against a production build on Postgres (`npm run bench:shipments`).
 * Prints numbers; asserts nothing.
 *
 *  1. GET /v1/shipments with BENCH_SHIPMENTS (default 100 000) shipments in the organization, seeded in SQL
 *     (scripts/seed-shipments.mts): first page, deep offset, status filter, free-text `q`, at concurrency 1 and 16;
 *     then EXPLAIN ANALYZE of the list's queries, to show where the time goes;
 *  2. create + purchase throughput: 16 workers, each looping POST /v1/shipments then POST /v1/shipments/{id}/purchase
 *     with the sandbox at zero latency (fetch, since autocannon cannot chain requests). Goal (issue 35): ≥ 100
 *     shipments/s, purchase step p50 ≤ 120 ms;
 *  3. profile: a second server on the same database with DATABASE_STATEMENT_LOG (bench/profile.ts) runs pairs one at
 *     a time and prints the statements (round trips) each step sends.
 *
 * Each run gets a fresh database `shipwell_bench_<random>` on the DATABASE_URL server, dropped at the end.
 * Env: DATABASE_URL (required; any database on the server, used to create and drop the bench one), ENCRYPTION_KEY
 * (default 64 × "a"), BENCH_SECONDS (default 10 per run), BENCH_SHIPMENTS (default 100000), BENCH_WORKERS
 * (default 16), PORT (default 3211), BENCH_SKIP_LISTS=1 (only create + purchase and its profile), BENCH_PROFILE_SQL=1
 * (print one purchase's statements), BENCH_CPU_PROFILE=<dir> (keep the server's CPU profile there, for Chrome DevTools'
 * Performance panel).
 */
import postgres from "postgres";
import {
  benchShipmentBody,
  ensureBuild,
  percentile,
  printRows,
  run,
  scratchDatabase,
  SECONDS,
  startServer,
  type BenchServer,
  type Row,
} from "./server";
import { biggestProfile, cpuSummary, statementLog, statementSummary, topFunctions } from "./profile";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultOrgId, seedShipments, type SeedResult } from "@/scripts/seed-shipments.mjs";

const ADMIN_URL = process.env.DATABASE_URL;
if (!ADMIN_URL) {
  console.error(
    "bench:shipments runs against Postgres: set DATABASE_URL to a database on the server to use, e.g.\n" +
      "  DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:shipments\n" +
      "A fresh database shipwell_bench_<random> is created there for the run and dropped at the end.",
  );
  process.exit(1);
}
const ENCRYPTION_KEY = process.env.ENCRYPTION_KEY || "a".repeat(64);
const PORT = Number(process.env.PORT ?? 3211);
const SHIPMENTS = Number(process.env.BENCH_SHIPMENTS ?? 100_000);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 16);
const SKIP_LISTS = process.env.BENCH_SKIP_LISTS === "1";

const shipmentBody = benchShipmentBody(["sandbox"]);

// ---------------------------------------------------------------------------------------------------------------
// create + purchase

interface PairStats {
  seconds: number;
  pairs: number;
  pair: number[];
  create: number[];
  purchase: number[];
  errors: { create: number; purchase: number };
  samples: string[];
}

async function createAndPurchase(server: BenchServer, stats: PairStats): Promise<void> {
  const t0 = performance.now();
  let id: string;
  let rateId: string;
  try {
    const res = await fetch(`${server.base}/v1/shipments`, {
      method: "POST",
      headers: server.headers,
      body: shipmentBody,
    });
    const text = await res.text();
    if (res.status !== 201) throw new Error(`POST /v1/shipments → ${res.status} ${text.slice(0, 300)}`);
    const shipment = JSON.parse(text) as { id: string; rates: { id: string }[] };
    if (!shipment.rates?.[0]) throw new Error(`POST /v1/shipments → no rates: ${text.slice(0, 300)}`);
    id = shipment.id;
    rateId = shipment.rates[0].id;
  } catch (err) {
    stats.errors.create++;
    if (stats.samples.length < 5) stats.samples.push((err as Error).message);
    return;
  }
  const t1 = performance.now();
  try {
    const res = await fetch(`${server.base}/v1/shipments/${id}/purchase`, {
      method: "POST",
      headers: server.headers,
      body: JSON.stringify({ selected_rate_id: rateId }),
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`POST /v1/shipments/{id}/purchase → ${res.status} ${text.slice(0, 300)}`);
    const body = JSON.parse(text) as { shipment?: { status?: string } };
    if (body.shipment?.status !== "purchased") throw new Error(`purchase answered status ${body.shipment?.status}`);
  } catch (err) {
    stats.errors.purchase++;
    if (stats.samples.length < 5) stats.samples.push((err as Error).message);
    return;
  }
  const t2 = performance.now();
  stats.create.push(t1 - t0);
  stats.purchase.push(t2 - t1);
  stats.pair.push(t2 - t0);
  stats.pairs++;
}

/** `workers` loops of create+purchase for `seconds`; an iteration started before the deadline is finished. */
async function pairLoad(server: BenchServer, workers: number, seconds: number): Promise<PairStats> {
  const stats: PairStats = {
    seconds: 0,
    pairs: 0,
    pair: [],
    create: [],
    purchase: [],
    errors: { create: 0, purchase: 0 },
    samples: [],
  };
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (performance.now() < deadline) await createAndPurchase(server, stats);
    }),
  );
  stats.seconds = (performance.now() - started) / 1000;
  for (const a of [stats.pair, stats.create, stats.purchase]) a.sort((x, y) => x - y);
  return stats;
}

/** `n` pairs one at a time against a server that logs its statements: each step's statements, averaged. */
async function profilePairs(server: BenchServer, log: ReturnType<typeof statementLog>, n: number) {
  const create: string[] = [];
  const purchase: string[] = [];
  for (let i = 0; i < n; i++) {
    const m0 = log.mark();
    const res = await fetch(`${server.base}/v1/shipments`, {
      method: "POST",
      headers: server.headers,
      body: shipmentBody,
    });
    const shipment = (await res.json()) as { id: string; rates: { id: string }[] };
    const m1 = log.mark();
    const bought = await fetch(`${server.base}/v1/shipments/${shipment.id}/purchase`, {
      method: "POST",
      headers: server.headers,
      body: JSON.stringify({ selected_rate_id: shipment.rates[0]!.id }),
    });
    await bought.text();
    if (bought.status !== 200) throw new Error(`profile purchase → ${bought.status}`);
    create.push(...log.since(m0).slice(0, m1 - m0));
    purchase.push(...log.since(m1));
  }
  if (process.env.BENCH_PROFILE_SQL === "1") {
    for (const s of purchase.slice(0, purchase.length / n)) console.log("  purchase> " + s.slice(0, 220));
  }
  return { create: statementSummary(create, n), purchase: statementSummary(purchase, n) };
}

// ---------------------------------------------------------------------------------------------------------------
// EXPLAIN ANALYZE

interface Explained {
  label: string;
  /** Median execution time of 3 EXPLAIN (ANALYZE, TIMING OFF): per-node timing inflates row-heavy plans. */
  ms: number;
  /** One EXPLAIN (ANALYZE, BUFFERS) run, with per-node times. */
  plan: string[];
}

async function explain(sql: postgres.Sql, label: string, query: string): Promise<Explained> {
  const executionMs = (lines: string[]) => Number(/Execution Time: ([\d.]+) ms/.exec(lines.join("\n"))?.[1] ?? NaN);
  const text = async (options: string) =>
    (await sql.unsafe<{ "QUERY PLAN": string }[]>(`explain (${options}) ${query}`)).map((r) => r["QUERY PLAN"]);
  const plan = await text("analyze, buffers");
  const times: number[] = [];
  for (let i = 0; i < 3; i++) times.push(executionMs(await text("analyze, timing off")));
  times.sort((x, y) => x - y);
  return { label, ms: times[1]!, plan };
}

// ---------------------------------------------------------------------------------------------------------------

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

let cleanup: (() => Promise<void>) | null = null;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the server and dropping the bench database…`);
    void (cleanup ?? (async () => {}))().finally(() => process.exit(130));
  });
}

ensureBuild();
const scratch = scratchDatabase(ADMIN_URL!);
const DB_NAME = scratch.name;
console.log(`Created database ${DB_NAME}.`);
let server: BenchServer | null = null;
let sql: postgres.Sql | null = null;
let cleaned: Promise<void> | null = null;
cleanup = () =>
  (cleaned ??= (async () => {
    await sql?.end({ timeout: 5 }).catch(() => {});
    await server?.stop().catch(() => {});
    try {
      scratch.drop();
      console.log(`Dropped database ${DB_NAME}.`);
    } catch (err) {
      console.error((err as Error).message);
    }
  })());

try {
  const dbUrl = scratch.url;
  server = await startServer({ port: PORT, env: { DATABASE_URL: dbUrl, ENCRYPTION_KEY } });
  // Migrations and bootstrap run at start; the first authenticated call proves the key and the database work.
  await server.api("GET", "/v1/shipments?limit=1");
  sql = postgres(dbUrl, { max: 2, onnotice: () => {} });
  const orgId = await defaultOrgId(sql);

  // 1. Lists over a big organization.
  console.log(`Seeding ${SHIPMENTS} shipments into ${orgId}…`);
  const seedStarted = Date.now();
  const seed: SeedResult = await seedShipments(sql, {
    orgId,
    count: SHIPMENTS,
    log: (line) => console.log("  " + line),
  });
  const seedSeconds = (Date.now() - seedStarted) / 1000;
  const [{ n: total } = { n: 0 }] = await sql<
    { n: number }[]
  >`select count(*)::int as n from shipments where org_id = ${orgId}`;
  // Index-only scans skip the heap only on all-visible pages (VACUUM sets them).
  const [vis] = await sql<{ pages: number; visible: number }[]>`
    select relpages as pages, relallvisible as visible from pg_class where oid = 'shipments'::regclass`;

  const auth = { Authorization: server.headers.Authorization! };
  const deepOffset = Math.floor(total / 2);
  const lists: [string, string][] = SKIP_LISTS
    ? []
    : [
        ["GET /v1/shipments?limit=20", "/v1/shipments?limit=20"],
        [`GET …?limit=20&offset=${deepOffset}`, `/v1/shipments?limit=20&offset=${deepOffset}`],
        ["GET …?limit=20&status=purchased", "/v1/shipments?limit=20&status=purchased"],
        ["GET …?limit=20&q=austin", "/v1/shipments?limit=20&q=austin"],
      ];
  const pageInfo: string[] = [];
  for (const [label, path] of lists) {
    const res = await fetch(server.base + path, { headers: auth });
    const text = await res.text();
    const body = JSON.parse(text) as { count?: number; results?: unknown[] };
    pageInfo.push(
      `${label}: HTTP ${res.status}, count ${body.count}, ${body.results?.length} results, ${(text.length / 1024).toFixed(0)} KB`,
    );
    // Warm up the route, the JIT and Postgres' cache for this query.
    await run(server.base, "warm-up", 4, { path, headers: auth, seconds: 2 });
  }
  const listRows: Row[] = [];
  for (const c of [1, 16]) {
    for (const [label, path] of lists) listRows.push(await run(server.base, label, c, { path, headers: auth }));
  }

  // Where the time goes: the list's queries as Postgres runs them (the org id inlined; it is our own org_ id).
  if (!/^org_[0-9a-f]{32}$/.test(orgId)) throw new Error(`unexpected org id ${orgId}`);
  const org = `'${orgId}'`;
  const idQuery = (where: string, order: string, offset: number) =>
    `select id from shipments where org_id = ${org}${where} order by ${order} limit 20 offset ${offset}`;
  const appOrder = "created_at desc, id desc"; // what listShipments sends (DESC means NULLS FIRST)
  const indexOrder = "created_at desc nulls last, id desc nulls last"; // shipments_org_created's order
  const explained: Explained[] = SKIP_LISTS
    ? []
    : [
        await explain(sql, `id query, offset ${deepOffset}`, idQuery("", appOrder, deepOffset)),
        await explain(sql, "count(*)", `select count(*) from shipments where org_id = ${org}`),
        await explain(sql, "id query, first page", idQuery("", appOrder, 0)),
        await explain(sql, "id query, status=purchased", idQuery(" and status = 'purchased'", appOrder, 0)),
        await explain(
          sql,
          "count(*), status=purchased",
          `select count(*) from shipments where org_id = ${org} and status = 'purchased'`,
        ),
        await explain(sql, "id query, q=austin", idQuery(" and search_text ilike '%austin%'", appOrder, 0)),
        await explain(
          sql,
          "count(*), q=austin",
          `select count(*) from shipments where org_id = ${org} and search_text ilike '%austin%'`,
        ),
        // Not what the app sends: the same pages in the index's own order, for comparison.
        await explain(sql, "(comparison) id query, first page, ORDER BY … NULLS LAST", idQuery("", indexOrder, 0)),
        await explain(
          sql,
          `(comparison) id query, offset ${deepOffset}, ORDER BY … NULLS LAST`,
          idQuery("", indexOrder, deepOffset),
        ),
      ];

  // 2. create + purchase.
  console.log(`Create+purchase: warm-up, then ${WORKERS} workers for ${SECONDS}s…`);
  const purchaseStarted = new Date();
  await pairLoad(server, 4, 2);
  const pairs = await pairLoad(server, WORKERS, SECONDS);
  // 3. Profile: statements per step, on a second server that logs them (stopped before the report).
  await server.stop();
  const log = statementLog();
  const profiled = await startServer({
    port: PORT,
    // The background loops off: their statements would be counted with the requests'.
    env: {
      DATABASE_URL: dbUrl,
      ENCRYPTION_KEY,
      DATABASE_STATEMENT_LOG: log.path,
      WEBHOOK_DELIVERY: "off",
      TRACKER_REFRESH: "off",
    },
  });
  server = profiled;
  await profilePairs(profiled, log, 3); // prepares the statements, fills the caches
  const profile = await profilePairs(profiled, log, 10);
  log.remove();
  // CPU: a third server under --cpu-prof, the same pair load for half the time; the profile is written at exit.
  await profiled.stop();
  const cpuDir = mkdtempSync(join(tmpdir(), "shipwell-cpu-"));
  const cpuServer = await startServer({
    port: PORT,
    env: {
      DATABASE_URL: dbUrl,
      ENCRYPTION_KEY,
      WEBHOOK_DELIVERY: "off",
      TRACKER_REFRESH: "off",
    },
    nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${cpuDir}`],
  });
  server = cpuServer;
  await pairLoad(cpuServer, 4, 2); // start-up and warm-up: left out of the summary
  const cpuLoad = await pairLoad(cpuServer, WORKERS, Math.max(3, SECONDS / 2));
  await cpuServer.stop();
  const cpuFile = biggestProfile(cpuDir);
  const cpuMs = cpuLoad.seconds * 1000;
  const cpu = cpuFile ? { buckets: cpuSummary(cpuFile, cpuMs), top: topFunctions(cpuFile, cpuMs) } : null;
  const keep = process.env.BENCH_CPU_PROFILE;
  if (cpuFile && keep) {
    mkdirSync(keep, { recursive: true });
    copyFileSync(cpuFile, join(keep, "create-purchase.cpuprofile"));
  }
  rmSync(cpuDir, { recursive: true, force: true });
  const [label] = await sql<{ avg: number | null; n: number }[]>`
    select avg(octet_length(content))::int as avg, count(*)::int as n from labels where created_at >= ${purchaseStarted}`;

  // Report.
  console.log(
    `\nShipwell shipments bench — production build, postgres, ${SECONDS}s per run, node ${process.version}\n`,
  );
  console.log(
    `Seed: ${seed.inserted.shipments} shipments (${seed.inserted.labels} purchased with labels, ${seed.inserted.rates} rates, ` +
      `${seed.inserted.parcels} parcels, ${seed.inserted.addresses} addresses) in ${seedSeconds.toFixed(1)} s ` +
      `(insert ${(seed.insertMs / 1000).toFixed(1)} s, vacuum analyze ${(seed.vacuumMs / 1000).toFixed(1)} s); ${total} shipments in the org; ` +
      `${vis?.visible}/${vis?.pages} shipments pages all-visible.`,
  );
  for (const line of pageInfo) console.log(line);
  console.log();
  printRows(listRows, 40);

  console.log(`\nEXPLAIN (ANALYZE, BUFFERS) of the list's queries (time: median of 3 runs with TIMING OFF):`);
  for (const e of explained) {
    console.log(`\n-- ${e.label}: ${e.ms} ms`);
    for (const line of e.plan) console.log("   " + line);
  }

  const errors = pairs.errors.create + pairs.errors.purchase;
  console.log(
    `\nCreate+purchase, ${WORKERS} workers, ${pairs.seconds.toFixed(1)} s: ${pairs.pairs} pairs = ${(pairs.pairs / pairs.seconds).toFixed(1)} shipments/s; ` +
      `errors: ${pairs.errors.create} create, ${pairs.errors.purchase} purchase`,
  );
  for (const s of pairs.samples) console.log(`  error: ${s}`);
  console.log(
    `Goal (issue 35): ≥ 100 shipments/s and a purchase step p50 ≤ 120 ms; measured ${(pairs.pairs / pairs.seconds).toFixed(1)} /s, ` +
      `p50 ${fmt(percentile(pairs.purchase, 0.5))} ms.`,
  );
  console.log(`Profile, one pair at a time (each statement one round trip to Postgres):`);
  console.log(`  POST /v1/shipments: ${profile.create}`);
  console.log(`  POST /v1/shipments/{id}/purchase: ${profile.purchase}`);
  if (cpu) {
    console.log(`CPU of the server under the same load (node --cpu-prof, share of busy time): ${cpu.buckets}`);
    console.log(`  top functions by self time: ${cpu.top.join("; ")}`);
  } else console.log("CPU profile: none written (the server did not exit cleanly)");
  if (label?.n)
    console.log(
      `Real sandbox PDF labels bought in this run: ${label.n}, ${label.avg} bytes on average (the seed's are 2–4 KB).`,
    );

  const md: string[] = [
    "| scenario | conc | req/s | p50 ms | p99 ms | errors |",
    "|---|---:|---:|---:|---:|---:|",
    ...listRows.map(
      (r) => `| ${r.scenario} | ${r.connections} | ${r.rps.toFixed(0)} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${r.errors} |`,
    ),
    `| create+purchase pair (shipments/s) | ${WORKERS} | ${(pairs.pairs / pairs.seconds).toFixed(1)} | ${fmt(percentile(pairs.pair, 0.5))} | ${fmt(percentile(pairs.pair, 0.99))} | ${errors} |`,
    `| — POST /v1/shipments step | ${WORKERS} | | ${fmt(percentile(pairs.create, 0.5))} | ${fmt(percentile(pairs.create, 0.99))} | ${pairs.errors.create} |`,
    `| — POST /v1/shipments/{id}/purchase step | ${WORKERS} | | ${fmt(percentile(pairs.purchase, 0.5))} | ${fmt(percentile(pairs.purchase, 0.99))} | ${pairs.errors.purchase} |`,
    "",
    "| query (EXPLAIN ANALYZE, median of 3, TIMING OFF) | execution ms |",
    "|---|---:|",
    ...explained.map((e) => `| ${e.label} | ${e.ms} |`),
  ];
  console.log(`\n## Results (${total} shipments in the org, ${SECONDS}s per run)\n`);
  console.log(md.join("\n"));
  const shown = new URL(ADMIN_URL);
  shown.password = ""; // never print a password
  console.log(
    `\nReproduce: DATABASE_URL=${shown} BENCH_SECONDS=${SECONDS} BENCH_SHIPMENTS=${SHIPMENTS} BENCH_WORKERS=${WORKERS} npm run bench:shipments`,
  );
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await cleanup();
}
