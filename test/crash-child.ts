/**
 * The process test/crash-purchase.test.ts kills (and test/cross-process.test.ts, on Postgres). It sends purchases and
 * cancellations through the real route handlers (Idempotency-Key and all) on the embedded database in DATA_DIR, or
 * on DATABASE_URL's, lets the sandbox sell or void, and then,
 * between the carrier's answer and the commit that records it, stops: every database transaction from then on waits
 * forever. Once each operation got its carrier answer it prints READY with what the carrier answered, and the test
 * sends SIGKILL. Nothing here runs in the service itself.
 *
 * argv[2]: JSON { key, operations: [{ kind: "purchase" | "cancel", id, rateId?, idempotencyKey }] }
 */
import { POST as cancel } from "@/app/v1/shipments/[id]/cancel/route";
import { POST as purchase } from "@/app/v1/shipments/[id]/purchase/route";
import { sandboxAdapter } from "@/lib/carriers/sandbox/adapter";
import { getDb } from "@/lib/db/client";
import { call } from "./helpers";

interface Operation {
  kind: "purchase" | "cancel";
  id: string;
  rateId?: string;
  idempotencyKey: string;
}

const { key, operations } = JSON.parse(process.argv[2]!) as { key: string; operations: Operation[] };
const answered: string[] = [];
let hung = 0;

function ready() {
  if (answered.length === operations.length && hung === operations.length) {
    process.stdout.write(`READY ${JSON.stringify(answered)}\n`);
  }
}

// The carrier answers as usual; the answer is noted on its way back to the service.
const ship = sandboxAdapter.ship.bind(sandboxAdapter);
const voidLabel = sandboxAdapter.void.bind(sandboxAdapter);
Object.assign(sandboxAdapter, {
  async ship(...args: Parameters<typeof ship>) {
    const result = await ship(...args);
    answered.push(`ship ${result.data.tracking_number}`);
    return result;
  },
  async void(...args: Parameters<typeof voidLabel>) {
    const result = await voidLabel(...args);
    answered.push(`void ${args[1].tracking_number}`);
    return result;
  },
});

// No top-level await: the command line's loader runs this file as CommonJS, like scripts/cli.ts.
async function main() {
  // After the first answer, recording never happens: the transaction that would commit it never starts.
  const db = await getDb();
  const transaction = db.transaction.bind(db);
  db.transaction = ((...args: Parameters<typeof transaction>) => {
    if (answered.length === 0) return transaction(...args);
    hung++;
    ready();
    return new Promise<never>(() => {});
  }) as typeof db.transaction;

  for (const op of operations) {
    const path = `/v1/shipments/${op.id}/${op.kind}`;
    void call(op.kind === "purchase" ? purchase : cancel, "POST", path, {
      key,
      params: { id: op.id },
      headers: { "Idempotency-Key": op.idempotencyKey },
      body: op.kind === "purchase" ? { selected_rate_id: op.rateId } : undefined,
    });
  }
}

void main();
