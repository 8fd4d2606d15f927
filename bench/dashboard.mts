/**
 * Dashboard benchmark against a production build (`npm run bench:dashboard`). Prints numbers; asserts nothing.
 *
 *  1. Server time to first byte of /shipments, signed in, with BENCH_SHIPMENTS (default 100 000) shipments in the
 *     organization, seeded in SQL (scripts/seed-shipments.mts): the first page, the Purchased tab (the seed's
 *     shipments are drafts or purchased) and a search for a recipient's name; and of the overview (/), with trackers
 *     added beside the labels' own until there are BENCH_TRACKERS (100 000) (statuses mixed: moving, delivered with
 *     an estimate and a delivered scan, exceptions); BENCH_REQUESTS (30) sequential requests each after 5 warm-up
 *     ones; the public tracking page of one delivered tracker (/track/[id], the same requests); the time to the last
 *     byte beside it, and /api/health as the floor;
 *  2. the JavaScript /shipments/new and /shipments load in Chromium, every script fetched once more with gzip;
 *  3. "Buy label" to the label preview on the shipment page, from a filled /shipments/new, sandbox at zero latency:
 *     the page's URL, the preview in the page, and Chromium's PDF viewer holding the label; BENCH_BUYS (5) runs
 *     after one warm-up.
 *
 * Embedded PGlite in a fresh DATA_DIR by default; with DATABASE_URL (any database on a Postgres server), a scratch
 * database `shipwell_bench_<random>` created there and dropped at the end. The bench signs up the first account (it
 * owns the default organization), stops the server (PGlite is single-process), seeds that organization, and starts
 * the server again on the same database.
 * Env: DATABASE_URL, ENCRYPTION_KEY (Postgres; default 64 × "a"), PORT (3212), BENCH_SHIPMENTS, BENCH_TRACKERS, BENCH_REQUESTS,
 * BENCH_BUYS, CHROMIUM_PATH.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import type { Browser } from "playwright-core";
import { ensureBuild, percentile, scratchDatabase, startServer, type BenchServer } from "./server";
import { openPgliteWire } from "./pglite-wire";
import { pageTimes, signUp } from "./dashboard-http";
import { buyLabelOnce, launchChromium, scriptWeight, signedInContext, type BuyTiming } from "./browser";
import { seedShipments } from "@/scripts/seed-shipments.mjs";

const ADMIN_URL = process.env.DATABASE_URL;
const PORT = Number(process.env.PORT ?? 3212);
const SHIPMENTS = Number(process.env.BENCH_SHIPMENTS ?? 100_000);
const TRACKERS = Number(process.env.BENCH_TRACKERS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 30);
const BUYS = Number(process.env.BENCH_BUYS ?? 5);
const ENGINE = ADMIN_URL ? "postgres" : "pglite";
const EMAIL = "bench-clerk@example.com";
// A recipient name the seed writes (its FIRST × LAST lists): about one shipment in 320.
const SEARCH = "maya lopez";

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
    const trackers = await seedTrackers(sql, member.org_id, TRACKERS);
    // A share link for one delivered tracker: its public page is timed signed out (32 hex, as the page accepts).
    const [shared] = await sql<{ public_id: string }[]>`
      update trackers set public_id = coalesce(public_id, md5(random()::text || id))
      where id = (select id from trackers where org_id = ${member.org_id} and status = 'delivered' limit 1)
      returning public_id`;
    const [n] = await sql<{ total: number; purchased: number; found: number }[]>`
      select count(*)::int as total, (count(*) filter (where status = 'purchased'))::int as purchased,
        (count(*) filter (where search_text like ${`%${SEARCH}%`}))::int as found
      from shipments where org_id = ${member.org_id}`;
    return {
      ...member,
      ...n!,
      trackers,
      publicId: shared?.public_id ?? null,
      labels: result.inserted.labels,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await sql.end({ timeout: 5 });
    await wire?.close();
  }
}

/**
 * Trackers numbers were tracked through the API (no shipment), until the organization has `total`, created over the
 * last 365 days: an eighth each pending, in transit, out for delivery, on hold, failed, and three eighths delivered
 * (an estimate five days after creation, a delivered scan zero to seven days after). Returns the total.
 */
async function seedTrackers(sql: postgres.Sql, orgId: string, total: number): Promise<number> {
  const [have] = await sql<{ n: number }[]>`select count(*)::int as n from trackers where org_id = ${orgId}`;
  const missing = Math.max(0, total - have!.n);
  await sql.begin(async (tx) => {
    await tx`
      create temp table seed_trk on commit drop as
      select 'trk_' || replace(gen_random_uuid()::text, '-', '') as id, 'SBXT' || lpad(n::text, 20, '0') as number,
        (array['pending', 'in_transit', 'out_for_delivery', 'on_hold', 'delivery_failed', 'delivered', 'delivered',
          'delivered'])[1 + floor(random() * 8)::int] as status,
        c as created_at, c + random() * interval '7 days' as event_at
      from (select n, now() - random() * interval '365 days' as c from generate_series(1, ${missing}::int) n) g`;
    await tx`
      insert into trackers (id, org_id, carrier_name, carrier_id, carrier_connection_id, tracking_number, status, test_mode,
        estimated_delivery, last_event_at, created_at, updated_at)
      select t.id, ${orgId}, 'sandbox', 'sandbox', coalesce(
          (select id from carrier_connections where org_id = ${orgId} and carrier_name = 'sandbox' limit 1), 'car_none'),
        t.number, t.status, true, to_char(t.created_at + interval '5 days', 'YYYY-MM-DD'),
        case when t.status <> 'pending' then t.event_at end, t.created_at, t.created_at
      from seed_trk t`;
    await tx`
      insert into tracking_events (tracker_id, fingerprint, org_id, occurred_at, date, time, description, location, code, status)
      select id, 'delivered', ${orgId}, event_at, to_char(event_at, 'YYYY-MM-DD'), to_char(event_at, 'HH24:MI'),
        'Delivered', 'Austin, TX, US', 'DL', 'delivered'
      from seed_trk where status = 'delivered'`;
  });
  await sql.unsafe("vacuum analyze trackers, tracking_events");
  return have!.n + missing;
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
    const cookies = await signUp(base, EMAIL);
    const cookie = cookies.map((c) => `${c.name}=${c.value}`).join("; ");
    await server.stop();
    server = null;
    const seeded = await seed(scratch?.url ?? null, dataDir);
    server = await startServer({ port: PORT, env });

    // Each measurement stands alone: one that fails is reported, and the others are still taken.
    const failures: string[] = [];
    async function attempt<T>(what: string, measure: () => Promise<T>): Promise<T | null> {
      try {
        return await measure();
      } catch (err) {
        console.error(`${what}:`, err); // in full (a browser step's call log), before the table repeats its gist
        failures.push(`${what}: ${(err as Error).message.split("\n")[0]}`);
        return null;
      }
    }

    // 1. Server time of the list.
    const lists: [string, string][] = [
      ["first page", "/shipments"],
      [`Purchased tab (${seeded.purchased})`, "/shipments?status=purchased"],
      [`search "${SEARCH}" (${seeded.found})`, `/shipments?q=${encodeURIComponent(SEARCH)}`],
      [`overview / (${seeded.trackers} trackers)`, "/"],
      ...(seeded.publicId ? [["public tracking /track/[id]", `/track/${seeded.publicId}`] as [string, string]] : []),
      ["(baseline: /api/health, no page)", "/api/health"],
    ];
    const listRows = [];
    for (const [label, path] of lists)
      listRows.push({ label, times: await attempt(`GET ${path}`, () => pageTimes(base, path, cookie, REQUESTS)) });

    // 2. JavaScript the pages load.
    const chromium = (browser = await launchChromium());
    const weights = [];
    for (const path of ["/shipments/new", "/shipments"])
      weights.push({ path, w: await attempt(`scripts of ${path}`, () => scriptWeight(chromium, base, path, cookies)) });

    // 3. "Buy label" → preview; the warm-up run pays for the first use of the routes' code.
    const context = await signedInContext(chromium, base, cookies);
    const buys: BuyTiming[] = [];
    await attempt("Buy label", async () => {
      await buyLabelOnce(context, base);
      for (let i = 0; i < BUYS; i++) buys.push(await buyLabelOnce(context, base));
    });
    await context.close();

    const bundler = existsSync(".next/turbopack") ? "Turbopack" : "webpack";
    console.log(
      `\nShipwell dashboard bench — production build (${bundler}), ${ENGINE}, node ${process.version}, ` +
        `${cpus().length} CPUs, Chromium ${chromium.version()}`,
    );
    console.log(
      `Seed: ${seeded.total} shipments (${seeded.labels} with labels) and ${seeded.trackers} trackers in ${seeded.org_id} in ${seeded.seconds.toFixed(0)} s; ` +
        `the bench's account is its ${seeded.role}${seeded.is_default ? " (the default organization)" : ""}.\n`,
    );
    console.log(`GET /shipments and /, ${REQUESTS} sequential requests after 5 warm-up ones, signed in (ms)`);
    console.log(
      "".padEnd(36) +
        ["TTFB p50", "TTFB p95", "full p50", "full p95"].map((h) => h.padStart(9)).join("") +
        "  HTML kB gz",
    );
    for (const { label, times: t } of listRows) {
      const cells = t ? [t.ttfb, t.ttfb, t.total, t.total].map((a, i) => ms(percentile(a, i % 2 ? 0.95 : 0.5))) : [];
      console.log(label.padEnd(36) + (t ? cells.join("") + kb(t.bytes).padStart(12) : "    failed"));
    }
    console.log(`\nJavaScript loaded by the page (kB; until the load event, then until the network was idle)`);
    console.log("".padEnd(36) + ["scripts", "gzip", "raw", "later gz"].map((h) => h.padStart(10)).join(""));
    for (const { path, w } of weights) {
      const cells = w
        ? String(w.atLoad.count).padStart(10) + kb(w.atLoad.gzip) + kb(w.atLoad.raw) + kb(w.later.gzip)
        : "";
      console.log(path.padEnd(36) + (w ? cells + (w.plain ? `  (${w.plain} not gzipped)` : "") : "    failed"));
    }
    console.log(`\n"Buy label" clicked → …, sandbox at 0 ms latency, ${buys.length} runs after 1 warm-up (ms)`);
    console.log("".padEnd(36) + ["median", "min", "max"].map((h) => h.padStart(9)).join(""));
    for (const [label, key] of [
      ["… the shipment page's URL", "toDetail"],
      ["… the label preview in the page", "toPreview"],
      ["… the PDF viewer has it (≈ painted)", "toViewer"],
    ] as const) {
      const t = buys
        .map((b) => b[key])
        .filter((n) => !Number.isNaN(n))
        .sort((x, y) => x - y);
      console.log(label.padEnd(36) + (t.length ? ms(percentile(t, 0.5)) + ms(t[0]!) + ms(t.at(-1)!) : "      n/a"));
    }
    for (const f of failures) console.log(`failed: ${f}`);
    if (failures.length) process.exitCode = 1;
    const shown = ADMIN_URL ? new URL(ADMIN_URL) : null;
    if (shown) shown.password = ""; // never print a password
    console.log(
      `\nReproduce: npm run build && ${shown ? `DATABASE_URL=${shown} ` : ""}BENCH_SHIPMENTS=${SHIPMENTS} BENCH_TRACKERS=${TRACKERS} ` +
        `BENCH_REQUESTS=${REQUESTS} BENCH_BUYS=${BUYS} npm run bench:dashboard`,
    );
  } finally {
    await cleanup();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
