import "server-only";
import { systemContext } from "@/lib/context";
import { getDb } from "@/lib/db/client";
import { batchRunner } from "@/lib/env";
import { log } from "@/lib/log";
import { activeBatches } from "@/lib/batches/manage-batch";
import { runBatch } from "@/lib/batches/run-batch";
import { inngest } from "./inngest";

const BATCH_EVENT = "shipwell/batch.run";
// Steps per round, each working its own rows (claimed with SKIP LOCKED: a retried step never works a row twice).
const STEPS_PER_ROUND = 4;
const ROWS_PER_STEP = 50;
// Inngest allows 1 000 steps per run: a batch bigger than the rounds allow is picked up by the next cron run.
const MAX_ROUNDS = 200;

/**
 * `run-batch`: one run per batch (an event names it when it is created or confirmed, and a cron finds any batch left
 * active, after a crash or a lost event). Its steps each work up to 50 rows, fanned out over parallel workers
 * (run-batch.ts: rows claimed with SKIP LOCKED and a lease, so a retried step or a second run never works a row
 * twice), one step after another (steps started side by side left the test engine's abandoned passes holding the
 * embedded database), until the phase is done and the batch settled.
 */
export const runBatchFunction = inngest.createFunction(
  {
    id: "run-batch",
    triggers: [{ event: BATCH_EVENT }],
    concurrency: { key: "event.data.batch_id", limit: 1 },
  },
  async ({ event, step }) => {
    const batchId = String((event.data as { batch_id?: unknown }).batch_id ?? "");
    const context = async () => systemContext(await getDb(), "inngest");
    let worked = 0;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      // One step at a time: each works up to ROWS_PER_STEP rows with its own parallel workers, and is retried alone.
      const reports = [];
      for (let s = 0; s < STEPS_PER_ROUND; s++) {
        reports.push(
          await step.run(`round-${round}-${s}`, async () =>
            runBatch({ ctx: await context(), batchId, maxDurationMs: 45_000, maxRows: ROWS_PER_STEP, workers: 16 }),
          ),
        );
        if (reports.at(-1)!.worked === 0) break;
      }
      worked += reports.reduce((n, r) => n + r.worked, 0);
      // Steps finish in any order: whichever settled the batch says so (or found it waiting for a person's
      // decision: the decision asks for a run again).
      const settled = reports.find((r) => !r.more);
      if (settled) return { batch_id: batchId, worked, state: settled.state };
      // Rows leased elsewhere (a crashed worker's): wait for the leases rather than spin.
      if (reports.every((r) => r.worked === 0)) await step.sleep(`wait-${round}`, "30s");
    }
    return { batch_id: batchId, worked, state: "unfinished" };
  },
);

/** `resume-batches`: every minute, a run for each active batch (Inngest drops a duplicate while one runs). */
export const resumeBatchesFunction = inngest.createFunction(
  { id: "resume-batches", triggers: [{ cron: "* * * * *" }] },
  async ({ step }) => {
    const ids = await step.run("plan", async () => activeBatches(await getDb()));
    if (ids.length > 0)
      await step.sendEvent(
        "run",
        ids.map((id) => ({ name: BATCH_EVENT, data: { batch_id: id } })),
      );
    return { batches: ids.length };
  },
);

/**
 * After a batch is created or confirmed: with Inngest, ask for its run now; in-process, the batch loop finds it on
 * its next tick (started with the server). A lost request costs only latency: the cron or the loop finds it.
 */
export async function startBatchWork(batchId: string): Promise<void> {
  if (batchRunner() !== "inngest") return;
  await inngest
    .send({ name: BATCH_EVENT, data: { batch_id: batchId } })
    .catch((err) => log().warn({ msg: "batch run not requested; the cron picks it up", batch_id: batchId, err }));
}
