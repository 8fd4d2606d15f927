/**
 * The process test/batch-crash.test.ts kills: it works a confirmed batch (lib/batches/run-batch.ts) on the embedded
 * database in DATA_DIR until the sandbox has sold `after` labels; from then on every database transaction waits
 * forever (labels sold are not recorded) and so does every later carrier answer, and it prints READY with how many
 * labels the carrier sold. The test then sends SIGKILL. Nothing here runs in the service itself.
 *
 * argv[2]: JSON { batchId, after }
 */
import { runBatch } from "@/lib/batches/run-batch";
import { sandboxAdapter } from "@/lib/carriers/sandbox/adapter";
import { systemContext } from "@/lib/context";
import { getDb } from "@/lib/db/client";

const { batchId, after } = JSON.parse(process.argv[2]!) as { batchId: string; after: number };
let sold = 0;

const ship = sandboxAdapter.ship.bind(sandboxAdapter);
Object.assign(sandboxAdapter, {
  async ship(...args: Parameters<typeof ship>) {
    const result = await ship(...args);
    sold++;
    if (sold === after) setTimeout(() => process.stdout.write(`READY ${sold}\n`), 200);
    // Past the crash point the answer never comes back: the process is about to die with it in hand.
    if (sold >= after) return new Promise<never>(() => {});
    return result;
  },
});

// No top-level await: the command line's loader runs this file as CommonJS, like scripts/cli.ts.
async function main() {
  const db = await getDb();
  const transaction = db.transaction.bind(db);
  db.transaction = ((...args: Parameters<typeof transaction>) =>
    sold >= after ? new Promise<never>(() => {}) : transaction(...args)) as typeof db.transaction;
  await runBatch({ ctx: systemContext(db, "crash-child"), batchId, maxDurationMs: 600_000 });
}

void main();
