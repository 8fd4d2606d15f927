/**
 * Dashboard benchmark against a production build (`npm run bench:dashboard`). Prints numbers; asserts nothing.
 *
 *  1. Server time to first byte of /shipments, signed in, with BENCH_SHIPMENTS (default 100 000) shipments in the
 *     organization, seeded in SQL (scripts/seed-shipments.mts): the first page, the Purchased tab (the seed's
 *     shipments are drafts or purchased) and a search for a recipient's name; BENCH_REQUESTS (30) sequential
 *     requests each after 5 warm-up ones; the time to the last byte beside it;
 *  2. the JavaScript /shipments/new and /shipments load in Chromium, every script fetched once more with gzip;
 *  3. "Buy label" to the label preview on the shipment page, from a filled /shipments/new, sandbox at zero latency:
 *     BENCH_BUYS (5) runs after one warm-up.
 *
 * Embedded PGlite in a fresh DATA_DIR by default; with DATABASE_URL (any database on a Postgres server), a scratch
 * database `shipwell_bench_<random>` created there and dropped at the end. The bench signs up the first account (it
 * owns the default organization), stops the server (PGlite is single-process), seeds that organization, and starts
 * the server again on the same database.
 * Env: DATABASE_URL, ENCRYPTION_KEY (Postgres; default 64 × "a"), PORT (3212), BENCH_SHIPMENTS, BENCH_REQUESTS,
 * BENCH_BUYS, CHROMIUM_PATH.
 */
import { randomBytes } from "node:crypto";
import { Agent, request } from "node:http";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import type { Browser } from "playwright-core";
import { ensureBuild, percentile, scratchDatabase, startServer, type BenchServer } from "./server";
import { openPgliteWire } from "./pglite-wire";
import { buyLabelOnce, launchChromium, scriptWeight, signedInContext, type Cookie } from "./browser";
import { seedShipments } from "@/scripts/seed-shipments.mjs";

const ADMIN_URL = process.env.DATABASE_URL;
const PORT = Number(process.env.PORT ?? 3212);
const SHIPMENTS = Number(process.env.BENCH_SHIPMENTS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 30);
const BUYS = Number(process.env.BENCH_BUYS ?? 5);
const ENGINE = ADMIN_URL ? "postgres" : "pglite";
const EMAIL = "bench-clerk@example.com";
// A recipient name the seed writes (its FIRST × LAST lists): about one shipment in 320.
const SEARCH = "maya lopez";

/** The first account: its session cookies (better-auth answers them on sign-up). */
async function signUp(base: string): Promise<Cookie[]> {
  const res = await fetch(`${base}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: base },
    body: JSON.stringify({ name: "Bench Clerk", email: EMAIL, password: randomBytes(12).toString("hex") }),
  });
  if (!res.ok) throw new Error(`sign-up → ${res.status} ${await res.text()}`);
  const cookies = res.headers.getSetCookie().map((line) => {
    const pair = line.split(";")[0]!;
    const eq = pair.indexOf("=");
    return { name: pair.slice(0, eq), value: pair.slice(eq + 1) };
  });
  if (!cookies.some((c) => c.name.endsWith("session_token"))) throw new Error("sign-up set no session cookie");
  return cookies;
}

/** Seeds the signed-up account's organization, over the wire either way (scripts/seed-shipments.mts is postgres.js). */
async function seed(databaseUrl: string | null, dataDir: string) {
  const wire = databaseUrl ? null : await openPgliteWire(dataDir);
  const sql = postgres(databaseUrl ?? wire!.url, { max: 1, onnotice: () => {} });
  try {
    const [member] = await sql<{ org_id: string; role: string; is_default: boolean }[]>`
      select m.org_id, m.role, o.is_default from memberships m join users u on u.id = m.user_id
      join organizations o on o.id = m.org_id where u.email = ${EMAIL}`;
    if (!member) throw new Error(`${EMAIL} has no organization`);
    console.log(`Seeding ${SHIPMENTS} shipments into ${member.org_id}…`);
    const started = Date.now();
    const result = await seedShipments(sql, {
      orgId: member.org_id,
      count: SHIPMENTS,
      log: (l) => console.log("  " + l),
    });
    const [n] = await sql<{ total: number; purchased: number; found: number }[]>`
      select count(*)::int as total, (count(*) filter (where status = 'purchased'))::int as purchased,
        (count(*) filter (where search_text like ${`%${SEARCH}%`}))::int as found
      from shipments where org_id = ${member.org_id}`;
    return { ...member, ...n!, labels: result.inserted.labels, seconds: (Date.now() - started) / 1000 };
  } finally {
    await sql.end({ timeout: 5 });
    await wire?.close();
  }
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** One GET as a browser sends it (cookie, gzip): ms to the answer's first byte and to its last, bytes on the wire. */
function timedGet(url: string, cookie: string) {
  return new Promise<{ status: number; ttfb: number; total: number; bytes: number }>((resolve, reject) => {
    const started = performance.now();
    const req = request(url, { agent, headers: { cookie, "accept-encoding": "gzip" } }, (res) => {
      const ttfb = performance.now() - started;
      let bytes = 0;
      res.on("data", (c: Buffer) => (bytes += c.length));
      res.on("error", reject);
      res.on("end", () => resolve({ status: res.statusCode!, ttfb, total: performance.now() - started, bytes }));
    });
    req.on("error", reject);
    req.end();
  });
}

async function pageTimes(base: string, path: string, cookie: string) {
  for (let i = 0; i < 5; i++) {
    const warm = await timedGet(base + path, cookie);
    if (warm.status !== 200) throw new Error(`GET ${path} → ${warm.status}`);
  }
  const ttfb: number[] = [];
  const total: number[] = [];
  let bytes = 0;
  for (let i = 0; i < REQUESTS; i++) {
    const r = await timedGet(base + path, cookie);
    ttfb.push(r.ttfb);
    total.push(r.total);
    bytes = r.bytes;
  }
  ttfb.sort((a, b) => a - b);
  total.sort((a, b) => a - b);
  return { ttfb, total, bytes };
}

const ms = (n: number) => n.toFixed(0).padStart(9);
const kb = (n: number) => (n / 1024).toFixed(1).padStart(10);

let cleanup: () => Promise<void> = async () => {};
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void cleanup().finally(() => process.exit(130)));
}

async function main() {
  ensureBuild();
  const scratch = ADMIN_URL ? scratchDatabase(ADMIN_URL) : null;
  const dataDir = mkdtempSync(join(tmpdir(), "shipwell-dashboard-"));
  let server: BenchServer | null = null;
  let browser: Browser | null = null;
  let cleaned: Promise<void> | null = null;
  cleanup = () =>
    (cleaned ??= (async () => {
      await browser?.close().catch(() => {});
      await server?.stop().catch(() => {});
      scratch?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    })());
  try {
    const base = `http://127.0.0.1:${PORT}`;
    // PUBLIC_URL: plain-http session cookies, whichever the engine (lib/auth/better-auth.ts).
    const env: Record<string, string> = scratch
      ? { PUBLIC_URL: base, DATABASE_URL: scratch.url, ENCRYPTION_KEY: process.env.ENCRYPTION_KEY || "a".repeat(64) }
      : { PUBLIC_URL: base, DATA_DIR: dataDir };
    server = await startServer({ port: PORT, env });
    const cookies = await signUp(base);
    const cookie = cookies.map((c) => `${c.name}=${c.value}`).join("; ");
    await server.stop();
    server = null;
    const seeded = await seed(scratch?.url ?? null, dataDir);
    server = await startServer({ port: PORT, env });

    // 1. Server time of the list.
    const lists: [string, string][] = [
      ["first page", "/shipments"],
      [`Purchased tab (${seeded.purchased})`, "/shipments?status=purchased"],
      [`search "${SEARCH}" (${seeded.found})`, `/shipments?q=${encodeURIComponent(SEARCH)}`],
    ];
    const listRows = [];
    for (const [label, path] of lists) listRows.push({ label, path, ...(await pageTimes(base, path, cookie)) });

    // 2. JavaScript the pages load. 3. "Buy label" → preview.
    browser = await launchChromium();
    const weights = [];
    for (const path of ["/shipments/new", "/shipments"])
      weights.push({ path, ...(await scriptWeight(browser, base, path, cookies)) });
    const context = await signedInContext(browser, base, cookies);
    await buyLabelOnce(context, base); // warm-up: the routes' first compile of their data paths, the label code
    const buys = [];
    for (let i = 0; i < BUYS; i++) buys.push(await buyLabelOnce(context, base));
    await context.close();

    console.log(
      `\nShipwell dashboard bench — production build (${existsSync(".next/turbopack") ? "Turbopack" : "webpack"}), ${ENGINE}, node ${process.version}, ${cpus().length} CPUs, ` +
        `Chromium ${browser.version()}`,
    );
    console.log(
      `Seed: ${seeded.total} shipments (${seeded.labels} with labels) in ${seeded.org_id} in ${seeded.seconds.toFixed(0)} s; ` +
        `the bench's account is its ${seeded.role}${seeded.is_default ? " (the default organization)" : ""}.\n`,
    );
    console.log(`GET /shipments, ${REQUESTS} sequential requests after 5 warm-up ones, signed in (ms)`);
    console.log(
      "".padEnd(36) +
        "TTFB p50".padStart(9) +
        "TTFB p95".padStart(9) +
        "full p50".padStart(9) +
        "full p95".padStart(9) +
        "HTML kB gz".padStart(11),
    );
    for (const r of listRows) {
      console.log(
        r.label.padEnd(36) +
          ms(percentile(r.ttfb, 0.5)) +
          ms(percentile(r.ttfb, 0.95)) +
          ms(percentile(r.total, 0.5)) +
          ms(percentile(r.total, 0.95)) +
          kb(r.bytes).padStart(11),
      );
    }
    console.log(`\nJavaScript loaded by the page (kB; until the load event, then until the network was idle)`);
    console.log(
      "".padEnd(36) + "scripts".padStart(9) + "gzip".padStart(10) + "raw".padStart(10) + "later gz".padStart(10),
    );
    for (const w of weights) {
      console.log(
        w.path.padEnd(36) +
          String(w.atLoad.count).padStart(9) +
          kb(w.atLoad.gzip) +
          kb(w.atLoad.raw) +
          kb(w.later.gzip) +
          (w.plain ? `  (${w.plain} not gzipped)` : ""),
      );
    }
    const toPreview = buys.map((b) => b.toPreview).sort((a, b) => a - b);
    const toDetail = buys.map((b) => b.toDetail).sort((a, b) => a - b);
    console.log(
      `\n"Buy label" → label preview, sandbox at 0 ms latency, ${BUYS} runs after 1 warm-up: ` +
        `median ${percentile(toPreview, 0.5).toFixed(0)} ms (min ${toPreview[0]!.toFixed(0)}, max ${toPreview.at(-1)!.toFixed(0)}); ` +
        `the shipment page's URL after ${percentile(toDetail, 0.5).toFixed(0)} ms.`,
    );
    const shown = ADMIN_URL ? new URL(ADMIN_URL) : null;
    if (shown) shown.password = ""; // never print a password
    console.log(
      `\nReproduce: npm run build && ${shown ? `DATABASE_URL=${shown} ` : ""}BENCH_SHIPMENTS=${SHIPMENTS} ` +
        `BENCH_REQUESTS=${REQUESTS} BENCH_BUYS=${BUYS} npm run bench:dashboard`,
    );
  } finally {
    await cleanup();
    agent.destroy();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
