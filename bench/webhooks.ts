/**
 * Webhook delivery benchmark (`npm run bench:webhooks`). Prints numbers; asserts nothing.
 *
 * A burst of 10 000 tracker updates (written through the outbox, 100 per transaction, as refresh batches write
 * them) to local receivers on 127.0.0.1, sent by the in-process sender loop (the production path: 1 s ticks, a worker
 * per endpoint). Twice: two fast receivers alone, then the same two beside a slow one that takes 2 s per answer. For
 * each receiver: deliveries, events per second, and the lag from an event's commit to its arrival (p50, p99). The
 * fast receivers' lag with and without the slow one shows whether the slow one held them up. The slow receiver gets
 * what it can in the time the fast ones take (at 2 s per answer, one endpoint's deliveries go out one at a time).
 * Then a steady 200 events/s (10 per transaction every 50 ms) for STEADY_SECONDS to the same three: the lag a live
 * integration sees. Last, a profile: 2 000 events written before the sender starts, the statements (round trips)
 * the sender sends per 100 deliveries, counted with DATABASE_STATEMENT_LOG (bench/profile.ts; on for the whole run),
 * and this process's CPU time per delivery (the sender's and the receivers'): a figure that depends less on what
 * else the machine is running than the rates do.
 * Goals (issue 35): drain ≥ 1 500 deliveries/s per instance; at a steady 200 events/s, lag p99 ≤ 1 s; a slow
 * endpoint changes neither.
 *
 * Env: DATABASE_URL (required: an admin URL; a scratch database is created and dropped), EVENTS (10000),
 * SLOW_MS (2000), STEADY_SECONDS (10).
 */
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import postgres from "postgres";
import { closeDb, getDb } from "@/lib/db/client";
import { newId } from "@/lib/db/ids";
import { organizations, webhookEndpoints } from "@/lib/db/schema";
import { resetEnvCache } from "@/lib/env";
import { startWebhookLoop } from "@/lib/jobs/scheduler";
import { encryptSecret, newSigningSecret } from "@/lib/webhooks/endpoint-rows";
import { recordEvents } from "@/lib/webhooks/outbox";
import { statementLog, statementSummary } from "./profile";

// env() is read lazily, so these apply although the imports above are evaluated first.
process.env.LOG_LEVEL ??= "warn";
process.env.ENCRYPTION_KEY ??= "a".repeat(64);
process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = "1";
const adminUrl = process.env.DATABASE_URL;
if (!adminUrl) {
  console.error(
    "bench:webhooks needs DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres): it creates a scratch database there.",
  );
  process.exit(1);
}
const EVENTS = Number(process.env.EVENTS ?? 10_000);
const SLOW_MS = Number(process.env.SLOW_MS ?? 2000);
const STEADY_SECONDS = Number(process.env.STEADY_SECONDS ?? 10);
const BATCH = 100;
const statements = statementLog();
process.env.DATABASE_STATEMENT_LOG = statements.path;

interface Receiver {
  name: string;
  url: string;
  /** webhook-id → arrival (ms since the epoch). */
  arrivals: Map<string, number>;
  server: Server;
}

async function receiver(name: string, delayMs: number): Promise<Receiver> {
  const arrivals = new Map<string, number>();
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      arrivals.set(String(req.headers["webhook-id"]), Date.now());
      const answer = () => res.writeHead(200).end("ok");
      if (delayMs > 0) setTimeout(answer, delayMs);
      else answer();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { name, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, arrivals, server };
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

// A stored tracker as the API presents it, the size of a real tracker.updated payload.
const trackerData = (i: number) => ({
  id: `trk_${i.toString(16).padStart(32, "0")}`,
  carrier_name: "sandbox",
  carrier_id: "sandbox",
  tracking_number: `SBX${String(i).padStart(12, "0")}`,
  events: Array.from({ length: 4 }, (_, k) => ({
    date: "2026-11-20",
    time: `1${k}:00`,
    description: "Arrived at sort facility",
    location: "CHICAGO, IL, US",
    code: "AR",
    status: "in_transit",
  })),
  delivered: false,
  test_mode: true,
  status: "in_transit",
  estimated_delivery: "2026-11-23",
  shipment_id: null,
  created_at: "2026-11-19 10:00:00.000000+00:00",
  updated_at: "2026-11-20 13:00:00.000000+00:00",
  refreshed_at: "2026-11-20 13:00:00.000000+00:00",
  next_refresh_at: "2026-11-20 14:00:00.000000+00:00",
});

/**
 * `burst`: EVENTS as fast as they can be written, the sender running; `steady`: 200 events/s for STEADY_SECONDS;
 * `profile`: 2 000 events written first, then the sender started, its statements counted.
 */
async function scenario(label: string, withSlow: boolean, mode: "burst" | "steady" | "profile" = "burst") {
  const db = await getDb();
  const orgId = newId("org");
  await db.insert(organizations).values({ id: orgId, name: `bench ${label}` });
  const receivers = [await receiver("fast A", 0), await receiver("fast B", 0)];
  if (withSlow) receivers.push(await receiver(`slow (${SLOW_MS} ms)`, SLOW_MS));
  for (const r of receivers) {
    const id = newId("webhook");
    await db.insert(webhookEndpoints).values({
      id,
      orgId,
      url: r.url,
      enabledEvents: ["*"],
      testMode: true,
      apiVersion: "2026-11",
      secretEncrypted: encryptSecret(id, newSigningSecret()),
    });
  }

  let loop = mode === "profile" ? null : startWebhookLoop({ intervalMs: 1000 });
  const committedAt = new Map<string, number>();
  let started = Date.now();
  const events = mode === "steady" ? STEADY_SECONDS * 200 : mode === "profile" ? 2000 : EVENTS;
  const batch = mode === "steady" ? 10 : BATCH;
  for (let i = 0; i < events; i += batch) {
    if (mode === "steady") {
      const due = started + (i / 200) * 1000;
      if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
    }
    const now = new Date();
    const ids = await db.transaction((tx) =>
      recordEvents(
        tx,
        Array.from({ length: Math.min(batch, events - i) }, (_, k) => ({
          orgId,
          type: "tracker.updated" as const,
          resourceId: `trk_${i + k}`,
          testMode: true,
          data: trackerData(i + k),
        })),
        now,
      ),
    );
    const at = Date.now();
    for (const id of ids) committedAt.set(id, at);
  }
  const written = Date.now();
  let mark = 0;
  let cpu: NodeJS.CpuUsage | undefined;
  if (mode === "profile") {
    mark = statements.mark();
    cpu = process.cpuUsage();
    started = Date.now();
    for (const id of committedAt.keys()) committedAt.set(id, started);
    loop = startWebhookLoop({ intervalMs: 1000 });
  }
  const fast = receivers.filter((r) => !r.name.startsWith("slow"));
  while (fast.some((r) => r.arrivals.size < events) && Date.now() - started < 15 * 60_000) {
    await new Promise((r) => setTimeout(r, 100));
  }
  const fastDone = Date.now();
  await loop!.stop();
  const sent = statements.since(mark);
  const delivered = receivers.reduce((n, r) => n + r.arrivals.size, 0);
  const { user, system } = process.cpuUsage(cpu);
  const profile =
    mode === "profile"
      ? `${statementSummary(sent, delivered / 100)} per 100 deliveries; ${((user + system) / 1000 / delivered).toFixed(2)} ms of CPU per delivery`
      : "";

  const rows = receivers.map((r) => {
    const lags = [...r.arrivals].map(([id, at]) => at - committedAt.get(id)!).sort((a, b) => a - b);
    const last = Math.max(...r.arrivals.values());
    return {
      scenario: label,
      receiver: r.name,
      delivered: r.arrivals.size,
      perSecond: Math.round((r.arrivals.size / (last - started)) * 1000),
      p50: percentile(lags, 50),
      p99: percentile(lags, 99),
    };
  });
  await Promise.all(
    receivers.map((r) => {
      r.server.closeAllConnections();
      return new Promise((res) => r.server.close(res));
    }),
  );
  return {
    rows,
    events,
    profile,
    writeSeconds: (written - started) / 1000,
    fastSeconds: (fastDone - started) / 1000,
  };
}

async function main(adminUrl: string) {
  const name = `shipwell_webhooks_${randomBytes(4).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  process.env.DATABASE_URL = adminUrl.replace(/\/[^/]*$/, `/${name}`);
  resetEnvCache();
  try {
    const alone = await scenario("2 fast", false);
    const beside = await scenario("2 fast + 1 slow", true);
    const steady = await scenario("steady 200/s, 2 fast + 1 slow", true, "steady");
    const profiled = await scenario("profile", false, "profile");
    console.log(
      `\n${EVENTS} tracker.updated events written in batches of ${BATCH} per transaction, sent by the in-process loop (1 s tick, a worker per endpoint)`,
    );
    for (const [label, s] of [
      ["2 fast", alone],
      ["2 fast + 1 slow", beside],
    ] as const) {
      console.log(
        `${label}: burst written in ${s.writeSeconds.toFixed(1)} s (${Math.round(EVENTS / s.writeSeconds)} events/s); fast receivers had everything after ${s.fastSeconds.toFixed(1)} s`,
      );
    }
    console.log("\n| scenario | receiver | delivered | events/s | lag p50 (ms) | lag p99 (ms) |");
    console.log("|---|---|---|---|---|---|");
    for (const r of [...alone.rows, ...beside.rows, ...steady.rows]) {
      console.log(`| ${r.scenario} | ${r.receiver} | ${r.delivered} | ${r.perSecond} | ${r.p50} | ${r.p99} |`);
    }
    const drain = (s: typeof alone) =>
      Math.round(
        s.rows.filter((r) => r.receiver.startsWith("fast")).reduce((n, r) => n + r.delivered, 0) / s.fastSeconds,
      );
    const p99 = (s: typeof alone) => Math.max(...s.rows.filter((r) => r.receiver.startsWith("fast")).map((r) => r.p99));
    console.log(
      `\nGoal (issue 35): drain ≥ 1 500 deliveries/s per instance — measured ${drain(alone)}/s alone, ${drain(beside)}/s beside the slow one;` +
        ` at a steady 200 events/s, lag p99 ≤ 1 000 ms — measured ${p99(steady)} ms (fast receivers, the slow one beside them).`,
    );
    console.log(
      `Profile (${profiled.events} events to 2 fast receivers, sender only, drained at ${drain(profiled)}/s): ${profiled.profile}.`,
    );
    console.log("\nreproduce: DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:webhooks");
  } finally {
    await closeDb();
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end();
    statements.remove();
  }
}

void main(adminUrl).catch((err) => {
  console.error(err);
  process.exit(1);
});
