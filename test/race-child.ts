/**
 * One of the contenders test/cross-process.test.ts runs as real Node processes against the same Postgres database
 * (DATABASE_URL). It opens the database and warms up, prints READY, waits for a GO line on stdin (the test sends it
 * to every contender at once), does its part, prints RESULT with what happened, and exits. Nothing here runs in the
 * service itself.
 *
 * argv[2]: JSON, one of
 * - { mode: "purchase", key, purchases: [{ id, rateId, idempotencyKey }] }: every purchase at once, through the real
 *   route handler (Idempotency-Key and all); RESULT lists each answer.
 * - { mode: "refresh", connectionIds }: refresh rounds (refreshConnection, as the scheduler's tick starts them) over
 *   those connections until a pass finds nothing to do; RESULT counts the carrier's track calls per tracking number.
 * - { mode: "claim", connectionId, batch, max }: claims the connection's due trackers `batch` at a time (the refresh's
 *   claim statement alone, without the connection's lease) until none is left or `max` were claimed; RESULT lists
 *   the claimed ids.
 * - { mode: "pace", key, perSecond, calls }: `calls` paced starts at once under one shared budget (paceShared, as a
 *   batch's workers pace a connection); RESULT lists when each started (epoch ms, this machine's clock).
 */
import { createInterface } from "node:readline";
import { sandboxAdapter } from "@/lib/carriers/sandbox/adapter";
import { closeDb, getDb } from "@/lib/db/client";

type Task =
  | { mode: "purchase"; key: string; purchases: { id: string; rateId: string; idempotencyKey: string }[] }
  | { mode: "refresh"; connectionIds: string[] }
  | { mode: "claim"; connectionId: string; batch: number; max: number }
  | { mode: "pace"; key: string; perSecond: number; calls: number };

const task = JSON.parse(process.argv[2]!) as Task;

// Every number the carrier was asked about, counted on its way out of the service.
const tracked = new Map<string, number>();
const count = (n: string) => tracked.set(n, (tracked.get(n) ?? 0) + 1);
const track = sandboxAdapter.track.bind(sandboxAdapter);
const trackMany = sandboxAdapter.trackMany!.bind(sandboxAdapter);
Object.assign(sandboxAdapter, {
  async track(...args: Parameters<typeof track>) {
    count(args[1]);
    return track(...args);
  },
  async trackMany(...args: Parameters<typeof trackMany>) {
    args[1].forEach(count);
    return trackMany(...args);
  },
});

const go = new Promise<void>((resolve) => {
  createInterface({ input: process.stdin }).on("line", (line) => {
    if (line === "GO") resolve();
  });
});

// Each mode imports only what it runs: a process starts faster with less to load.
async function purchaseAll(key: string, purchases: Extract<Task, { mode: "purchase" }>["purchases"]) {
  const { POST: purchase } = await import("@/app/v1/shipments/[id]/purchase/route");
  const { GET: getShipment } = await import("@/app/v1/shipments/[id]/route");
  const { call } = await import("./helpers");
  // The first request of a process loads the route's modules and caches the key: done before the start line.
  const first = purchases[0]!;
  await call(getShipment, "GET", `/v1/shipments/${first.id}`, { key, params: { id: first.id } });
  process.stdout.write("READY\n");
  await go;
  return Promise.all(
    purchases.map(async (p) => {
      const res = await call(purchase, "POST", `/v1/shipments/${p.id}/purchase`, {
        key,
        params: { id: p.id },
        headers: { "Idempotency-Key": p.idempotencyKey },
        body: { selected_rate_id: p.rateId },
      });
      return {
        id: p.id,
        status: res.status,
        replayed: res.headers.get("Idempotent-Replayed") === "true",
        code: (res.body?.errors?.[0]?.code as string | undefined) ?? null,
        trackingNumber: (res.body?.shipment?.tracking_number as string | undefined) ?? null,
      };
    }),
  );
}

async function refreshAll(connectionIds: string[]) {
  const { systemContext } = await import("@/lib/context");
  const { refreshConnection } = await import("@/lib/trackers/refresh/refresh-connection");
  const ctx = systemContext(await getDb(), "race");
  process.stdout.write("READY\n");
  await go;
  const reports = [];
  // A few passes at most: rounds that kept finding work would be a bug for the test to see, not to wait out.
  for (let passes = 0; passes < 5; passes++) {
    const pass = await Promise.all(connectionIds.map((connectionId) => refreshConnection({ ctx, connectionId })));
    reports.push(...pass);
    if (pass.every((r) => r.due === 0)) break;
  }
  return { tracked: Object.fromEntries(tracked), refreshed: reports.reduce((n, r) => n + r.refreshed, 0) };
}

async function claimAll(connectionId: string, batch: number, max: number) {
  const { claimDueTrackers } = await import("@/lib/trackers/refresh/due-trackers");
  const db = await getDb();
  process.stdout.write("READY\n");
  await go;
  const ids: string[] = [];
  // At most `max` claims: trackers that stayed due after their claim would otherwise be claimed forever.
  while (ids.length < max) {
    const now = new Date();
    const rows = await claimDueTrackers(db, connectionId, batch, now, new Date(now.getTime() + 5 * 60_000));
    if (rows.length === 0) break;
    ids.push(...rows.map((r) => r.id));
  }
  return ids;
}

async function paceAll(key: string, perSecond: number, calls: number) {
  const { paceShared } = await import("@/lib/connections/pace");
  const db = await getDb();
  // A first statement opens the pool's connection before the start line, as a warm instance has it open.
  await paceShared(db, `${key}:warm`, 1000);
  process.stdout.write("READY\n");
  await go;
  return Promise.all(Array.from({ length: calls }, () => paceShared(db, key, perSecond).then(() => Date.now())));
}

// No top-level await: the command line's loader runs this file as CommonJS, like scripts/cli.ts.
async function main() {
  const result =
    task.mode === "purchase"
      ? await purchaseAll(task.key, task.purchases)
      : task.mode === "refresh"
        ? await refreshAll(task.connectionIds)
        : task.mode === "claim"
          ? await claimAll(task.connectionId, task.batch, task.max)
          : await paceAll(task.key, task.perSecond, task.calls);
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
  await closeDb();
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
