import { sql } from "drizzle-orm";
import { NextRequest } from "next/server";
import { afterAll, describe, expect, it, vi } from "vitest";
import { tcpRelay, type TcpRelay } from "./tcp-relay";

/**
 * docs/api.md, "When the database is down": while Postgres cannot be reached every request answers 503
 * `unavailable` with Retry-After within 2 s, and within 1 s of its return requests succeed again, with no restart.
 * Real Postgres behind a relay the test cuts, under traffic. The outage is real time by nature (sockets, the
 * driver's timers), so this file waits on the clock; it asserts only the promise's bounds and prints what it saw.
 */
const PROMISED_ANSWER_MS = 2_000;
const PROMISED_RECOVERY_MS = 1_000;
const WORKERS = 8;

// The traffic is far over a key's per-minute limit: the limit is not what this file is about.
process.env.RATE_LIMIT_PER_MINUTE = "1000000";
// The promise holds at the service's own connect timeout, not the longer one test/setup.ts gives other files.
delete process.env.DATABASE_CONNECT_TIMEOUT_MS;
// The watch over work in flight, at its default (test/setup.ts turns it off for every other file).
delete process.env.DATABASE_STALL_MS;

let relay: TcpRelay | null = null;
if (process.env.DATABASE_URL) {
  relay = await tcpRelay(process.env.DATABASE_URL);
  process.env.DATABASE_URL = relay.url;
}

afterAll(async () => {
  await relay?.close();
  const { closeDb } = await import("@/lib/db/client");
  await closeDb();
});

interface Answer {
  started: number;
  ended: number;
  status: number;
  retryAfter: string | null;
  code: string | undefined;
}

// A dashboard page's render, outside Next.js: the request headers a page reads (proxy.ts sets the path one).
vi.mock("next/headers", () => ({
  headers: async () =>
    new Headers({ cookie: "shipwell.session_token=abc", "x-shipwell-path": "/shipments?status=purchased" }),
}));

/** A page visit as proxy.ts answers it, and a dashboard page's first step (requireSession) as it ends. */
async function pageVisit() {
  const { proxy } = await import("@/proxy");
  const { requireSession } = await import("@/lib/dashboard/session");
  const res = proxy(
    new NextRequest("http://localhost/shipments", { headers: { cookie: "shipwell.session_token=abc" } }),
  );
  const render = await requireSession().then(
    () => "rendered",
    (err: { digest?: string }) => err.digest ?? "threw",
  );
  return { status: res.status, retryAfter: res.headers.get("retry-after"), render };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** WORKERS clients asking GET /v1/connections back to back until stopped. */
async function traffic(key: string) {
  const { GET } = await import("@/app/v1/connections/route");
  const { call } = await import("./helpers");
  const answers: Answer[] = [];
  let stopping = false;
  const worker = async () => {
    while (!stopping) {
      const started = performance.now();
      const res = await call(GET, "GET", "/v1/connections", { key });
      answers.push({
        started,
        ended: performance.now(),
        status: res.status,
        retryAfter: res.headers.get("retry-after"),
        code: res.body?.errors?.[0]?.code,
      });
      // A client that was refused waits a little, as one honouring Retry-After would (scaled down).
      if (res.status !== 200) await pause(20);
    }
  };
  const workers = Array.from({ length: WORKERS }, worker);
  return {
    answers,
    async stop() {
      stopping = true;
      await Promise.all(workers);
      return answers;
    },
  };
}

async function ready() {
  const { GET } = await import("@/app/api/ready/route");
  const started = performance.now();
  const res = await GET();
  return { status: res.status, ms: performance.now() - started, retryAfter: res.headers.get("retry-after") };
}

/** better-auth's sign-in, which reads the users table. */
async function signInAttempt() {
  const { authEndpoint } = await import("@/lib/api/auth-endpoint");
  const res = await authEndpoint(
    new Request("http://localhost/api/auth/sign-in/email", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://localhost" },
      body: JSON.stringify({ email: "clerk@example.com", password: "correct horse battery" }),
    }),
  );
  return { status: res.status, retryAfter: res.headers.get("retry-after") };
}

const ms = (n: number) => Math.round(n);

async function outage(cut: (relay: TcpRelay) => Promise<void>, label: string) {
  const { makeOrg } = await import("./helpers");
  const { GET: health } = await import("@/app/api/health/route");
  await relay!.up();
  const { key } = await makeOrg();
  expect((await ready()).status).toBe(200);

  const load = await traffic(key);
  await pause(300);
  const cutAt = performance.now();
  await cut(relay!);
  await pause(2_500);
  const whileDown = await ready();
  const signIn = await signInAttempt();
  const page = await pageVisit();
  const liveness = health();
  await relay!.up();
  const backAt = performance.now();
  await pause(1_500);
  const answers = await load.stop();
  const afterward = await ready();

  const during = answers.filter((a) => a.started >= cutAt && a.ended <= backAt);
  // The requests the cut caught in flight: with the host silent mid-query, the ones the watch has to notice.
  const caught = answers.filter((a) => a.started < cutAt && a.ended > cutAt);
  const settled = answers.filter((a) => a.started >= backAt + PROMISED_RECOVERY_MS);
  const firstOk = answers.filter((a) => a.started >= backAt && a.status === 200).sort((a, b) => a.ended - b.ended)[0];
  const lastRefused = answers
    .filter((a) => a.started >= backAt && a.status !== 200)
    .sort((a, b) => b.ended - a.ended)[0];
  const slowest = Math.max(...answers.map((a) => a.ended - a.started));
  const downTimes = during.map((a) => a.ended - a.started).sort((a, b) => a - b);
  console.log(
    `${label}: ${answers.length} answers; during the outage ${during.length}, ` +
      `slowest ${ms(downTimes.at(-1) ?? 0)} ms, median ${ms(downTimes[Math.floor(downTimes.length / 2)] ?? 0)} ms; ` +
      `caught in flight ${caught.length}, slowest ${ms(Math.max(0, ...caught.map((a) => a.ended - a.started)))} ms; ` +
      `slowest of all ${ms(slowest)} ms; first 200 ${firstOk ? ms(firstOk.ended - backAt) : "none"} ms after the ` +
      `return, last 503 ${lastRefused ? ms(lastRefused.ended - backAt) : "none"} ms after; ` +
      `/api/ready while down ${whileDown.status} in ${ms(whileDown.ms)} ms`,
  );

  // Nothing but success or a clean 503, and nothing slower than the promise, from the cut to the end.
  expect(answers.filter((a) => a.status !== 200 && a.status !== 503)).toEqual([]);
  expect(slowest).toBeLessThanOrEqual(PROMISED_ANSWER_MS);
  for (const refused of answers.filter((a) => a.status === 503)) {
    expect(refused).toMatchObject({ retryAfter: "5", code: "unavailable" });
  }
  // While the database was away nothing succeeded, and there was traffic to answer.
  expect(during.length).toBeGreaterThan(WORKERS);
  expect(during.every((a) => a.status === 503)).toBe(true);
  // Within a second of its return everything succeeds again, without a restart.
  expect(settled.length).toBeGreaterThan(0);
  expect(settled.every((a) => a.status === 200)).toBe(true);

  expect(whileDown).toMatchObject({ status: 503, retryAfter: "5" });
  expect(whileDown.ms).toBeLessThanOrEqual(PROMISED_ANSWER_MS);
  expect(signIn).toEqual({ status: 503, retryAfter: "5" });
  expect((await liveness).status).toBe(200);
  expect(afterward.status).toBe(200);
  // A page visit is answered 503 by proxy.ts; a render that met the outage sends the visit back there, to the same
  // page (a signed-out visit would go to sign-in instead: afterward, the made-up session cookie does).
  expect(page).toMatchObject({ status: 503, retryAfter: "5" });
  expect(page.render).toMatch(/^NEXT_REDIRECT;replace;\/shipments\?status=purchased;307;/);
  expect((await pageVisit()).render).toMatch(/^NEXT_REDIRECT;replace;\/sign-in\?next=/);
  // Whatever pool serves now (a frozen one was replaced) reads values as the one drizzle was given: dates as text.
  const { getDb } = await import("@/lib/db/client");
  const rows = (await (await getDb()).execute(sql`select now() as at`)) as unknown as { at: unknown }[];
  expect(typeof rows[0]!.at).toBe("string");
}

describe.skipIf(!relay)("a database outage under traffic (Postgres)", { timeout: 30_000 }, () => {
  it("Postgres stopped: every request answers 503 within 2 s, and succeeds again within 1 s of its return", async () => {
    await outage((r) => r.down(), "stopped");
  });

  it("Postgres unreachable (connections never answered): the same, bounded by the connect timeout", async () => {
    await outage((r) => r.silent(), "silent");
  });

  it("host silent mid-query (connections stay open, nothing passes): the same, the stall noticed", async () => {
    await outage((r) => r.freeze(), "frozen");
  });

  it("a long but healthy query or transaction is not failed by the watch over work in flight", async () => {
    const { makeOrg } = await import("./helpers");
    const { getDb } = await import("@/lib/db/client");
    const { isDatabaseDown } = await import("@/lib/db/down");
    await relay!.up();
    const { key } = await makeOrg();
    const db = await getDb();
    const load = await traffic(key);
    let wentDown = false;
    const watching = setInterval(() => (wentDown ||= isDatabaseDown()), 20);
    const started = performance.now();
    // Longer than the watch waits before it checks, and over one check a second: each is answered, so nothing fails.
    const [slept, waited] = await Promise.all([
      db.execute(sql`select pg_sleep(2.2)`),
      db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        await pause(2_200); // a transaction waiting on a carrier
        return (await tx.execute(sql`select 2 as two`)) as unknown as { two: number }[];
      }),
    ]);
    const took = performance.now() - started;
    clearInterval(watching);
    const answers = await load.stop();
    console.log(`long work: ${ms(took)} ms; ${answers.length} answers meanwhile`);
    expect(slept as unknown as unknown[]).toHaveLength(1);
    expect(waited[0]).toEqual({ two: 2 });
    expect(wentDown).toBe(false);
    expect(answers.every((a) => a.status === 200)).toBe(true);
  });
});
