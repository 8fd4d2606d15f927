/**
 * Background refresh benchmark (`npm run bench:refresh`). Prints numbers; asserts nothing.
 *
 * 10 000 due trackers over 3 sandbox connections that answer after 50 ms, default batch and concurrency: rounds run
 * back to back until nothing is due. Reports trackers refreshed per minute, carrier calls, database queries per
 * tracker, and the ratio to the ideal (calls × latency / concurrency per connection, connections in parallel).
 * Then the same with one connection answering 429 (Retry-After 1 s) on every second call. Then one FedEx connection
 * through the carrier emulator (test/emulator, `trackMany` 30 numbers per call, each call LATENCY_MS): the real wire
 * format, HTTP and OAuth, paced by FedEx's budget (concurrency 4, 1 200 calls a minute).
 *
 * Beside each row: this process's CPU time over the wall time and how busy the whole machine was (this process and
 * the database), which tells a row bound by the carriers' latency from one bound by CPU.
 *
 * Env: DATABASE_URL (required: an admin URL; a scratch database is created and dropped), TRACKERS (10000),
 * LATENCY_MS (50), SKIP_THROTTLED=1 (no 429 scenario), SKIP_FEDEX=1 (no FedEx scenario), BENCH_CPU_PROFILE=<dir>
 * (a V8 CPU profile of each scenario, setup left out, written there for Chrome DevTools' Performance panel).
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import postgres from "postgres";
import { drizzle } from "drizzle-orm/postgres-js";
import { eq, sql } from "drizzle-orm";
import * as schema from "@/lib/db/schema";
import { carrierConnections, organizations, trackers, trackingEvents } from "@/lib/db/schema";
import { runMigrations } from "@/lib/db/migrate";
import { newId } from "@/lib/db/ids";
import type { Db } from "@/lib/db/tx";
import { sandboxAdapter } from "@/lib/carriers/sandbox/adapter";
import { makeTrackingNumber } from "@/lib/carriers/sandbox/tracking-number";
import { systemContext } from "@/lib/context";
import { refreshConnection } from "@/lib/trackers/refresh/refresh-connection";
import { refreshBudget } from "@/lib/trackers/refresh/budget";
import { fedexAdapter } from "@/lib/carriers/fedex/adapter";
import { encryptJson } from "@/lib/connections/crypto";
import { resetEnvCache } from "@/lib/env";
import { startCarrierEmulator } from "@/test/emulator";
import { fedexEmulatorNumber } from "@/test/emulator/fedex";

// env() is read lazily, so these apply although the imports above are evaluated first.
process.env.LOG_LEVEL ??= "warn";
process.env.ENCRYPTION_KEY ??= "a".repeat(64);
const adminUrl = process.env.DATABASE_URL;
if (!adminUrl) {
  console.error(
    "bench:refresh needs DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres): it creates a scratch database there.",
  );
  process.exit(1);
}
const TRACKERS = Number(process.env.TRACKERS ?? 10_000);
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 50);

async function main(adminUrl: string) {
  const name = `shipwell_refresh_${randomBytes(4).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const url = adminUrl.replace(/\/[^/]*$/, `/${name}`);
  const client = postgres(url, { max: 10, onnotice: () => {} });
  let queries = 0;
  const db = drizzle(client, { schema, logger: { logQuery: () => void queries++ } }) as never as Db;

  try {
    await runMigrations({ engine: "postgres", url });
    const orgId = newId("org");
    await db.insert(organizations).values({ id: orgId, name: "bench" });
    const connIds = [1, 2, 3].map(() => newId("connection"));
    await db.insert(carrierConnections).values(
      connIds.map((id, i) => ({
        id,
        orgId,
        carrierName: "sandbox",
        carrierId: `sbx-${i + 1}`,
        displayName: `Sandbox ${i + 1}`,
        config: { latency_ms: LATENCY_MS, pace: 1 },
      })),
    );

    // Parcels bought 30 h ago that stop at the sort hub (scenario 2): every refresh finds events to merge.
    const base = Date.now() - 30 * 3_600_000;
    const numbers = Array.from({ length: TRACKERS }, (_, i) =>
      makeTrackingNumber({ purchasedAt: new Date(base - Math.floor(i / 1000) * 1000), scenario: 2, serial: i % 1000 }),
    );
    const rows = numbers.map((n, i) => ({
      id: newId("tracker"),
      orgId,
      carrierName: "sandbox",
      carrierId: `sbx-${(i % 3) + 1}`,
      carrierConnectionId: connIds[i % 3]!,
      trackingNumber: n,
      status: "pending" as const,
      testMode: true,
    }));
    for (let i = 0; i < rows.length; i += 1000) await db.insert(trackers).values(rows.slice(i, i + 1000));

    const budget = refreshBudget(sandboxAdapter, {});
    const ctx = systemContext(db, "bench");
    const perConnection = Math.ceil(TRACKERS / 3);
    const idealMs = (Math.ceil(perConnection / budget.batchSize) * LATENCY_MS) / budget.concurrency;

    async function scenario(label: string, connIds: string[], idealMs: number) {
      await db.delete(trackingEvents);
      await db
        .update(trackers)
        .set({ status: "pending", nextRefreshAt: new Date(Date.now() - 1000), lastEventAt: null, refreshedAt: null });
      await db.update(carrierConnections).set({ refreshBackoffUntil: null });
      await client`vacuum analyze trackers`;
      queries = 0;
      const profiler = await startProfile();
      const cpuBefore = process.cpuUsage();
      const machineBefore = machineTicks();
      const started = performance.now();
      let rounds = 0;
      let requests = 0;
      let refreshed = 0;
      let backedOff = 0;
      const doneAt = new Map<string, number>();
      // Each connection on its own loop, as the in-process scheduler and the Inngest steps run them.
      await Promise.all(
        connIds.map(async (id) => {
          for (;;) {
            const r = await refreshConnection({ ctx, connectionId: id });
            rounds++;
            requests += r.requests;
            refreshed += r.refreshed;
            backedOff += r.backed_off;
            if (r.refreshed > 0) doneAt.set(id, performance.now() - started);
            if (r.due > 0) continue;
            const [left] = await db
              .select({ n: sql<number>`count(*)::int` })
              .from(trackers)
              .where(sql`${trackers.carrierConnectionId} = ${id} and ${trackers.refreshedAt} is null`);
            if (!left || left.n === 0) return;
            // Backed off: wait for the carrier's Retry-After, as the next tick would.
            await new Promise((res) => setTimeout(res, 200));
          }
        }),
      );
      const ms = performance.now() - started;
      const cpu = process.cpuUsage(cpuBefore);
      await profiler?.stop(label);
      const machine = machineTicks();
      return {
        // Where the time went: this process's CPU (the refresh's code, drizzle, postgres.js, the sandbox's answers)
        // and the whole machine's (this process and the database) over the scenario's wall time.
        ourCpuShare: +((cpu.user + cpu.system) / 1000 / ms).toFixed(2),
        machineBusy: machine && machineBefore ? busyShare(machineBefore, machine) : null,
        scenario: label,
        trackers: refreshed,
        seconds: +(ms / 1000).toFixed(2),
        perMinute: Math.round((refreshed / ms) * 60_000),
        rounds,
        calls: requests,
        backedOff,
        queriesPerTracker: +(queries / refreshed).toFixed(2),
        ratioToIdeal: +(idealMs / ms).toFixed(2),
        perConnection: connIds.map((id) => +((doneAt.get(id) ?? 0) / 1000).toFixed(2)).join(" / "),
      };
    }

    const results = [await scenario(`3 × sandbox @${LATENCY_MS} ms`, connIds, idealMs)];
    if (process.env.SKIP_THROTTLED !== "1") {
      await db
        .update(carrierConnections)
        .set({ config: { latency_ms: LATENCY_MS, pace: 1, rate_limit_every: 2 } })
        .where(eq(carrierConnections.id, connIds[0]!));
      results.push(await scenario("same, one answers 429 every 2nd call", connIds, idealMs));
    }

    let fedexIdeal = "";
    if (process.env.SKIP_FEDEX !== "1") {
      const emulator = await startCarrierEmulator();
      emulator.set("fedex", { latency_ms: LATENCY_MS });
      process.env.CARRIER_EMULATOR_URL = emulator.url;
      resetEnvCache();
      try {
        const fedexId = newId("connection");
        await db.insert(carrierConnections).values({
          id: fedexId,
          orgId,
          carrierName: "fedex",
          carrierId: "fedex-bench",
          displayName: "FedEx (emulated)",
          config: {},
          credentialsEncrypted: encryptJson(
            { api_key: "bench-key", secret_key: "bench-secret", account_number: "740561073" },
            fedexId,
          ),
        });
        await db.delete(trackers);
        const soldAt = new Date(Date.now() - 30 * 3_600_000);
        const fedexRows = Array.from({ length: TRACKERS }, (_, i) => ({
          id: newId("tracker"),
          orgId,
          carrierName: "fedex",
          carrierId: "fedex-bench",
          carrierConnectionId: fedexId,
          // Scenario 2 of the emulator: in transit, so every refresh finds events to merge.
          trackingNumber: fedexEmulatorNumber({ soldAt, serial: i, scenario: 2 }),
          status: "pending" as const,
          testMode: true,
        }));
        for (let i = 0; i < fedexRows.length; i += 1000) await db.insert(trackers).values(fedexRows.slice(i, i + 1000));
        const fb = refreshBudget(fedexAdapter, {});
        const calls = Math.ceil(TRACKERS / fb.batchSize);
        // The slower of the two limits: latency over the concurrent calls, or the calls-per-minute pace.
        const ideal = Math.max((calls * LATENCY_MS) / fb.concurrency, (calls / fb.requestsPerMinute) * 60_000);
        fedexIdeal = `FedEx ideal: ${calls} calls, max(${calls} × ${LATENCY_MS} ms / ${fb.concurrency}, ${calls} / ${fb.requestsPerMinute} per min) = ${Math.round(ideal)} ms`;
        results.push(await scenario(`1 × FedEx (emulator) @${LATENCY_MS} ms, 30 per call`, [fedexId], ideal));
      } finally {
        await emulator.close();
      }
    }

    console.log(
      `\n${TRACKERS} due trackers, 3 sandbox connections, ${LATENCY_MS} ms per call, batch ${budget.batchSize}, concurrency ${budget.concurrency}, ${budget.requestsPerMinute} calls/min per connection`,
    );
    console.log(
      `ideal per round: ceil(${perConnection}/${budget.batchSize}) calls × ${LATENCY_MS} ms / ${budget.concurrency} = ${idealMs} ms (connections in parallel); without batching it would be ${(perConnection * LATENCY_MS) / budget.concurrency} ms`,
    );
    if (fedexIdeal) console.log(fedexIdeal);
    console.log(
      "\n| scenario | refreshed | seconds | done per connection (s) | trackers/min | rounds | carrier calls | put off by 429 (tracker-rounds) | DB statements/tracker | this process's CPU / wall | machine busy | ideal/actual (goal ≥ 0.8) |",
    );
    console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (const r of results) {
      console.log(
        `| ${r.scenario} | ${r.trackers} | ${r.seconds} | ${r.perConnection} | ${r.perMinute} | ${r.rounds} | ${r.calls} | ${r.backedOff} | ${r.queriesPerTracker} | ${r.ourCpuShare} | ${r.machineBusy === null ? "n/a" : `${Math.round(r.machineBusy * 100)} %`} | ${r.ratioToIdeal} |`,
      );
    }
    console.log(
      "\nThe ideal counts the carriers' latency only. On an otherwise quiet machine (machine busy counts everything on it), a row whose machine is nearly all busy is bound by CPU (this process's and the database's), not by waiting on the carrier.",
    );
    console.log("\nreproduce: DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:refresh");
  } finally {
    await client.end({ timeout: 5 });
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
}

/** All cores' busy and total ticks from /proc/stat (Linux); null elsewhere. */
function machineTicks(): { busy: number; total: number } | null {
  try {
    const cpu = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
    const total = cpu.reduce((a, b) => a + b, 0);
    // user … steal (guest time is counted in user already); idle and iowait are not busy
    return { busy: total - cpu[3]! - (cpu[4] ?? 0), total };
  } catch {
    return null;
  }
}

const busyShare = (a: { busy: number; total: number }, b: { busy: number; total: number }) =>
  +((b.busy - a.busy) / Math.max(1, b.total - a.total)).toFixed(2);

void main(adminUrl).catch((err) => {
  console.error(err);
  process.exit(1);
});

/** BENCH_CPU_PROFILE=<dir>: a CPU profile of one scenario alone (not the setup). */
async function startProfile() {
  const dir = process.env.BENCH_CPU_PROFILE;
  if (!dir) return null;
  const { Session } = await import("node:inspector/promises");
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  return {
    async stop(label: string) {
      const { profile } = await session.post("Profiler.stop");
      session.disconnect();
      mkdirSync(dir, { recursive: true });
      const file = `${dir}/${label.replace(/[^a-z0-9]+/gi, "-")}.cpuprofile`;
      writeFileSync(file, JSON.stringify(profile));
      console.error(`CPU profile: ${file}`);
    },
  };
}
