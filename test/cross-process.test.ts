import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it, vi } from "vitest";

/**
 * Races between real Node processes on one Postgres database: what a purchase, a refresh round or a crash does when
 * the other contender is a second serverless instance or the refresher, not a promise in the same process. Every
 * contender opens the database and warms up, says READY, and starts on one GO line sent to all of them at once.
 * Postgres only: the embedded database is one process's (test/crash-purchase.test.ts covers the crash there).
 */

/** What the tests use, loaded when they run: on PGlite the file is skipped without loading the service. */
async function load() {
  const { and, eq, inArray } = await import("drizzle-orm");
  const { getDb } = await import("@/lib/db/client");
  const { carrierLedger, labels, shipments, trackers } = await import("@/lib/db/schema");
  const { call, makeOrg } = await import("./helpers");
  const { addSandbox, createShipmentFor } = await import("./factories");
  const { sandboxNumbers, seedDueTrackers, trackerRows } = await import("./refresh-helpers");
  return {
    and,
    eq,
    inArray,
    getDb,
    carrierLedger,
    labels,
    shipments,
    trackers,
    call,
    makeOrg,
    addSandbox,
    createShipmentFor,
    sandboxNumbers,
    seedDueTrackers,
    trackerRows,
  };
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

interface Contender {
  /** The READY line's payload (after "READY "), once the process is ready. */
  ready: Promise<unknown>;
  /** The RESULT line's payload, once the process is done. */
  result: Promise<unknown>;
  go(): void;
  kill(): Promise<NodeJS.Signals | null>;
}

function contender(script: string, task: unknown): Contender {
  // The environment as it is now, not at import: DATABASE_URL may name a database of this file's own. That database
  // is migrated already (each test opens it before it starts a contender), so the contenders skip the migrations.
  const child = spawn(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", script, JSON.stringify(task)],
    { env: { ...process.env, LOG_LEVEL: "silent", SKIP_MIGRATIONS: "1" }, stdio: ["pipe", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
  const lines = createInterface({ input: child.stdout });
  const payload = (prefix: string) =>
    new Promise<unknown>((resolve, reject) => {
      lines.on("line", (line) => {
        if (line === prefix) resolve(null);
        else if (line.startsWith(`${prefix} `)) resolve(JSON.parse(line.slice(prefix.length + 1)));
      });
      void exited.then(() => reject(new Error(`${script} exited before ${prefix}: ${stderr}`)));
    });
  const ready = payload("READY");
  const result = payload("RESULT");
  // Either may be left unawaited (a killed process has no RESULT).
  ready.catch(() => undefined);
  result.catch(() => undefined);
  return {
    ready,
    result,
    go: () => child.stdin.write("GO\n"),
    kill: async () => {
      child.kill("SIGKILL");
      return exited;
    },
  };
}

/** Starts every contender at the same instant, once all of them are ready; their results. */
async function race(contenders: Contender[]): Promise<unknown[]> {
  await Promise.all(contenders.map((c) => c.ready));
  for (const c of contenders) c.go();
  return Promise.all(contenders.map((c) => c.result));
}

interface PurchaseAnswer {
  id: string;
  status: number;
  replayed: boolean;
  code: string | null;
  trackingNumber: string | null;
}

describe.skipIf(!process.env.DATABASE_URL)("races across processes (Postgres)", () => {
  it(
    "two processes buying the same shipments at once: one label sold and recorded per shipment",
    { timeout: 180_000 },
    async () => {
      const {
        and,
        eq,
        inArray,
        getDb,
        carrierLedger,
        labels,
        shipments,
        trackers,
        makeOrg,
        addSandbox,
        createShipmentFor,
      } = await load();
      const { key, orgId } = await makeOrg();
      // The carrier takes its time, so the second purchase arrives while the first holds the shipment.
      const conn = await addSandbox(key, "race", { latency_ms: 150 });
      const made = await Promise.all(
        Array.from({ length: 10 }, () => createShipmentFor(key, { carrier_ids: [conn.id] })),
      );
      const sameKey = made.slice(0, 5);
      const otherKeys = made.slice(5);
      const purchasesOf = (who: string) => [
        ...sameKey.map((s, i) => ({ id: s.id, rateId: s.rates[0]!.id, idempotencyKey: `same-${i}` })),
        ...otherKeys.map((s, i) => ({ id: s.id, rateId: s.rates[0]!.id, idempotencyKey: `${who}-${i}` })),
      ];
      const [a, b] = (await race([
        contender("test/race-child.ts", { mode: "purchase", key, purchases: purchasesOf("a") }),
        contender("test/race-child.ts", { mode: "purchase", key, purchases: purchasesOf("b") }),
      ])) as PurchaseAnswer[][];

      const db = await getDb();
      const ids = made.map((s) => s.id);
      const sold = await db
        .select()
        .from(carrierLedger)
        .where(and(eq(carrierLedger.connectionId, conn.id), inArray(carrierLedger.shipmentKey, ids)));
      const rows = await db.select().from(shipments).where(inArray(shipments.id, ids));
      const stored = await db.select().from(labels).where(inArray(labels.shipmentId, ids));
      const tracked = await db.select().from(trackers).where(eq(trackers.orgId, orgId));
      for (const s of made) {
        const answers = [a!.find((r) => r.id === s.id)!, b!.find((r) => r.id === s.id)!];
        // The carrier's books: exactly one label sold for this shipment, and it is the one recorded.
        const sales = sold.filter((sale) => sale.shipmentKey === s.id);
        expect(sales).toHaveLength(1);
        expect(sales[0]!.voidedAt).toBeNull();
        const row = rows.find((r) => r.id === s.id)!;
        expect(row).toMatchObject({ status: "purchased", trackingNumber: sales[0]!.trackingNumber });
        expect(row.pendingOperation).toBeNull();
        expect(stored.filter((l) => l.shipmentId === s.id)).toHaveLength(1);
        expect(tracked.filter((t) => t.trackingNumber === sales[0]!.trackingNumber)).toHaveLength(1);

        // One contender bought it; the other got the documented answer (docs/api.md, "Exactly one label").
        const winners = answers.filter((r) => r.status === 200 && !r.replayed);
        expect(winners).toHaveLength(1);
        expect(winners[0]!.trackingNumber).toBe(sales[0]!.trackingNumber);
        const loser = answers.find((r) => r !== winners[0])!;
        if (sameKey.includes(s)) {
          // Same key: still running (409, retry later), or, if the first had finished, its answer replayed.
          if (loser.status === 200) expect(loser).toMatchObject({ replayed: true, trackingNumber: row.trackingNumber });
          else expect(loser).toMatchObject({ status: 409, code: "idempotency_in_progress" });
        } else {
          // Another key: the shipment is held by the other purchase, or already purchased.
          expect(loser).toMatchObject({ status: 409, code: "state_conflict", replayed: false });
        }
      }
    },
  );

  it(
    "two refresher processes over the same 1 000 due trackers: each is asked about and refreshed once",
    { timeout: 180_000 },
    async () => {
      const { makeOrg, addSandbox, sandboxNumbers, seedDueTrackers, trackerRows } = await load();
      const { key, orgId } = await makeOrg();
      // Real-time parcels (pace 1): once refreshed, a tracker is next due hours later, not during this test.
      const conns = await Promise.all(["r1", "r2", "r3", "r4"].map((id) => addSandbox(key, id, { pace: 1 })));
      const numbers = sandboxNumbers(1000, 30, 2);
      const ids = (
        await Promise.all(conns.map((c, i) => seedDueTrackers(orgId, c.id, numbers.slice(i * 250, (i + 1) * 250))))
      ).flat();
      const started = new Date();
      const connectionIds = conns.map((c) => c.id);
      const results = (await race([
        contender("test/race-child.ts", { mode: "refresh", connectionIds }),
        contender("test/race-child.ts", { mode: "refresh", connectionIds }),
      ])) as { tracked: Record<string, number>; refreshed: number }[];

      // The carrier was asked about each number exactly once, by one process or the other.
      const asked = new Map<string, number>();
      for (const r of results)
        for (const [n, times] of Object.entries(r.tracked)) asked.set(n, (asked.get(n) ?? 0) + times);
      expect([...asked.keys()].sort()).toEqual([...numbers].sort());
      expect([...asked.values()].filter((times) => times !== 1)).toEqual([]);
      expect(results.reduce((n, r) => n + r.refreshed, 0)).toBe(1000);
      // And each tracker took that answer and is due again later, not now.
      const rows = await trackerRows(ids);
      expect(rows).toHaveLength(1000);
      for (const row of rows) {
        expect(row.status).toBe("in_transit");
        expect(row.refreshedAt!.getTime()).toBeGreaterThanOrEqual(started.getTime());
        expect(row.nextRefreshAt!.getTime()).toBeGreaterThan(Date.now());
      }
    },
  );

  it(
    "two processes claiming one connection's due trackers without its lease: no tracker claimed twice",
    { timeout: 180_000 },
    async () => {
      const { makeOrg, addSandbox, sandboxNumbers, seedDueTrackers } = await load();
      const { key, orgId } = await makeOrg();
      const conn = await addSandbox(key, "claims", { pace: 1 });
      const ids = await seedDueTrackers(orgId, conn.id, sandboxNumbers(1000, 30, 2));
      const [a, b] = (await race([
        contender("test/race-child.ts", { mode: "claim", connectionId: conn.id, batch: 25, max: 1000 }),
        contender("test/race-child.ts", { mode: "claim", connectionId: conn.id, batch: 25, max: 1000 }),
      ])) as string[][];
      // Between them they claimed every tracker, each once: a claimed tracker is no longer due for the other.
      expect([...a!, ...b!].sort()).toEqual([...ids].sort());
      expect(new Set([...a!, ...b!]).size).toBe(1000);
    },
  );

  it(
    "two processes pacing one connection's batch calls: together within its budget, not each within it",
    { timeout: 120_000 },
    async () => {
      const task = { mode: "pace", key: `batch:two-processes-${Date.now()}`, perSecond: 10, calls: 6 };
      const contenders = [contender("test/race-child.ts", task), contender("test/race-child.ts", task)];
      await Promise.all(contenders.map((c) => c.ready));
      const goAt = Date.now();
      for (const c of contenders) c.go();
      const starts = ((await Promise.all(contenders.map((c) => c.result))) as number[][]).flat().sort((a, b) => a - b);
      // Twelve starts one spacing (105 ms) apart from the first slot, which is no sooner than the start line: the
      // k-th no sooner than k spacings after it (a busy machine only starts them later). A pace per process would
      // have started both processes' first calls together.
      expect(starts).toHaveLength(12);
      starts.forEach((at, k) => expect(at - goAt, `start ${k}`).toBeGreaterThanOrEqual(k * 100 - 5));
    },
  );

  it(
    "a process killed between the carrier's sale and the commit: the retry records that label, the orphan is voided",
    { timeout: 180_000 },
    async () => {
      const { and, eq, getDb, carrierLedger, labels, shipments, call, makeOrg, addSandbox, createShipmentFor } =
        await load();
      const { sandboxAdapter } = await import("@/lib/carriers/sandbox/adapter");
      const { POST: purchase } = await import("@/app/v1/shipments/[id]/purchase/route");
      const { POST: cancel } = await import("@/app/v1/shipments/[id]/cancel/route");
      const { key } = await makeOrg();
      const books = await addSandbox(key, "crash-books");
      const recovered = await createShipmentFor(key, { carrier_ids: [books.id] });
      // Never picked up, so its label can still be voided an hour later.
      const abandoned = await createShipmentFor(key, {
        carrier_ids: [books.id],
        options: { sandbox_scenario: "pending" },
      });
      const buy = (s: { id: string; rates: { id: string }[] }, idempotencyKey: string) =>
        call(purchase, "POST", `/v1/shipments/${s.id}/purchase`, {
          key,
          params: { id: s.id },
          headers: { "Idempotency-Key": idempotencyKey },
          body: { selected_rate_id: s.rates[0]!.id },
        });

      // test/crash-child.ts buys both labels, stops before recording them, says READY, and is killed.
      const child = contender("test/crash-child.ts", {
        key,
        operations: [
          { kind: "purchase", id: recovered.id, rateId: recovered.rates[0]!.id, idempotencyKey: "crash-1" },
          { kind: "purchase", id: abandoned.id, rateId: abandoned.rates[0]!.id, idempotencyKey: "crash-2" },
        ],
      });
      const answers = (await child.ready) as string[];
      expect(await child.kill()).toBe("SIGKILL");
      expect(answers.filter((a) => a.startsWith("ship "))).toHaveLength(2);

      const db = await getDb();
      const sales = async (id: string) =>
        db
          .select()
          .from(carrierLedger)
          .where(and(eq(carrierLedger.connectionId, books.id), eq(carrierLedger.shipmentKey, id)));
      const [sold] = await sales(recovered.id);
      expect(answers).toContain(`ship ${sold!.trackingNumber}`);
      const [row] = await db.select().from(shipments).where(eq(shipments.id, recovered.id));
      expect(row).toMatchObject({ status: "created", trackingNumber: null, pendingOperation: "purchase" });

      // While the dead process's key lock and claim last: the same key is in progress, another key is held off.
      expect((await buy(recovered, "crash-1")).body.errors[0].code).toBe("idempotency_in_progress");
      const early = await buy(recovered, "other-1");
      expect(early.status).toBe(409);
      expect(early.body.errors[0]).toMatchObject({
        code: "state_conflict",
        message: expect.stringMatching(/held until/),
      });

      // An hour later (only `Date` moves) both have expired; the retry with the same key runs again.
      const ship = vi.spyOn(sandboxAdapter, "ship");
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(Date.now() + 60 * 60 * 1000);
      const again = await buy(recovered, "crash-1");
      expect(again.status).toBe(200);
      expect(again.body.messages).toEqual([expect.objectContaining({ code: "purchase_recovered" })]);
      expect(again.body.shipment).toMatchObject({ status: "purchased", tracking_number: sold!.trackingNumber });
      expect(ship).not.toHaveBeenCalled();
      expect(await sales(recovered.id)).toEqual([expect.objectContaining({ voidedAt: null })]);
      expect(await db.select().from(labels).where(eq(labels.shipmentId, recovered.id))).toHaveLength(1);

      // The other label the dead process bought is found and voided when its shipment is cancelled.
      const [orphan] = await sales(abandoned.id);
      const dropped = await call(cancel, "POST", `/v1/shipments/${abandoned.id}/cancel`, {
        key,
        params: { id: abandoned.id },
      });
      expect(dropped.body.shipment).toMatchObject({ status: "cancelled", label: null });
      expect(dropped.body.messages).toContainEqual(
        expect.objectContaining({
          code: "purchase_recovered",
          message: expect.stringContaining(orphan!.trackingNumber),
        }),
      );
      expect(ship).not.toHaveBeenCalled();
      const after = await sales(abandoned.id);
      expect(after).toHaveLength(1);
      expect(after[0]!.voidedAt).not.toBeNull();
    },
  );
});
