import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it, vi } from "vitest";

/**
 * A process working a batch's purchase is killed with labels bought and not recorded (test/batch-crash-child.ts);
 * another process takes the batch over once the rows' leases and the shipments' claims have run out, and finishes
 * it. The sandbox's books say what the carrier sold: one label per row, none twice.
 */
delete process.env.DATABASE_URL;
const dataDir = mkdtempSync(join(tmpdir(), "shipwell-batch-crash-"));
process.env.DATA_DIR = dataDir;
delete process.env.SKIP_MIGRATIONS;
delete process.env.PGLITE_LOAD_DATA_DIR;

afterAll(async () => {
  vi.useRealTimers();
  const { closeDb } = await import("@/lib/db/client");
  await closeDb();
  rmSync(dataDir, { recursive: true, force: true });
});

const ROWS = 40;
const CRASH_AFTER = 15;

describe("a batch whose process is killed mid-purchase (embedded database, two processes)", () => {
  it("finishes after the restart with every row bought exactly once", { timeout: 300_000 }, async () => {
    const { getDb, closeDb } = await import("@/lib/db/client");
    const { call, makeOrg, systemCtx } = await import("./helpers");
    const { addSandbox } = await import("./factories");
    const { POST: createBatch } = await import("@/app/v1/batches/route");
    const { POST: purchase } = await import("@/app/v1/batches/[id]/purchase/route");
    const { GET: getBatch } = await import("@/app/v1/batches/[id]/route");
    const { runBatch } = await import("@/lib/batches/run-batch");
    const { carrierLedger } = await import("@/lib/db/schema");
    const { and, eq, isNull } = await import("drizzle-orm");

    const { key } = await makeOrg();
    const sandbox = await addSandbox(key, "crash-sbx", { batch_calls_per_second: 1000 });
    const rows = Array.from(
      { length: ROWS },
      (_, i) => `SO-${i},Recipient ${i},${i + 1} Elm Street,Austin,TX,78701,US,2`,
    );
    const created = await call(createBatch, "POST", "/v1/batches", {
      key,
      body: {
        csv: ["order_number,person_name,address_line1,city,state_code,postal_code,country_code,weight", ...rows].join(
          "\n",
        ),
        shipper: {
          address_line1: "1 Way",
          city: "Chicago",
          state_code: "IL",
          postal_code: "60607",
          country_code: "US",
        },
        mapping: { reference: "order_number" },
        rate_policy: { kind: "cheapest", carrier_id: sandbox.carrier_id },
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await runBatch({ ctx: await systemCtx(), batchId: id, maxDurationMs: 60_000 })).state).toBe("ready");
    expect((await call(purchase, "POST", `/v1/batches/${id}/purchase`, { key, params: { id } })).status).toBe(200);
    // The embedded database is one process's: hand the folder over.
    await closeDb();

    const child = spawn(
      process.execPath,
      [
        "--conditions=react-server",
        "--import",
        "tsx",
        "test/batch-crash-child.ts",
        JSON.stringify({ batchId: id, after: CRASH_AFTER }),
      ],
      { env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "silent" }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_c, signal) => resolve(signal)));
    await new Promise<void>((resolve, reject) => {
      createInterface({ input: child.stdout }).on("line", (line) => line.startsWith("READY ") && resolve());
      void exited.then(() => reject(new Error(`the child exited before READY: ${stderr}`)));
    });
    child.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");

    const db = await getDb();
    const sales = () => db.select().from(carrierLedger).where(eq(carrierLedger.connectionId, sandbox.id));
    const before = await sales();
    expect(before.length).toBeGreaterThanOrEqual(CRASH_AFTER);
    expect(before.length).toBeLessThan(ROWS);

    // The restart, after the rows' leases and the shipments' claims have run out.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(Date.now() + 30 * 60_000));
    const ctx = await systemCtx();
    let round = await runBatch({ ctx, batchId: id, maxDurationMs: 120_000 });
    for (let i = 0; i < 5 && round.more; i++) round = await runBatch({ ctx, batchId: id, maxDurationMs: 120_000 });
    expect(round.state).toBe("completed");

    const after = await db
      .select()
      .from(carrierLedger)
      .where(and(eq(carrierLedger.connectionId, sandbox.id), isNull(carrierLedger.voidedAt)));
    expect(after).toHaveLength(ROWS);
    expect(new Set(after.map((s) => s.shipmentKey)).size).toBe(ROWS);
    expect(await sales()).toHaveLength(ROWS);
    const got = await call(getBatch, "GET", `/v1/batches/${id}`, { key, params: { id } });
    expect(got.body.counts).toMatchObject({ purchased: ROWS, failed: 0, purchasing: 0 });
  });
});
