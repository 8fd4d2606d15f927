import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { withTransaction } from "@/lib/context";
import { getDb } from "@/lib/db/client";
import { changeShipmentStatus } from "@/lib/shipments/status";
import { sendDueWebhooks } from "@/lib/webhooks/send-due";
import { createShipmentFor } from "./factories";
import { makeOrg, orgCtx, systemCtx } from "./helpers";
import { createEndpoint, useWebhookReceivers } from "./webhook-helpers";

/**
 * docs/webhooks.md, "Order": an endpoint gets one resource's events in the order their changes committed, and
 * events of different resources in the order the sender found them committed. Concurrent transactions need real
 * Postgres (PGlite runs one transaction at a time, which orders everything trivially).
 */
const startReceiver = useWebhookReceivers();

/** Until a statement of this database waits for a row lock (the second change of the shipment). */
async function untilWaitingOnLock() {
  const db = await getDb();
  for (let i = 0; i < 500; i++) {
    const rows = (await db.execute(
      sql`select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    )) as unknown as unknown[];
    if (rows.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("the second change never waited for the first");
}

describe.skipIf(!process.env.DATABASE_URL)("webhook order (Postgres)", () => {
  it("one resource's events arrive in commit order, others' as they committed, whatever their write order", async () => {
    const { orgId, key } = await makeOrg();
    const x = await createShipmentFor(key);
    const y = await createShipmentFor(key);
    const receiver = await startReceiver();
    await createEndpoint(orgId, receiver.url);
    const ctx = await orgCtx(orgId);
    const sender = await systemCtx();
    const move =
      (shipmentId: string, to: "purchased" | "cancelled") => (tx: Parameters<typeof changeShipmentStatus>[0]) =>
        changeShipmentStatus(tx, [{ orgId, shipmentId, to, allowed: () => true }], new Date());

    // X bought in a transaction held open; X cancelled meanwhile (it waits for X's row); Y bought and committed.
    let commitFirst!: () => void;
    let firstWrote!: () => void;
    const wrote = new Promise<void>((resolve) => (firstWrote = resolve));
    const first = withTransaction(ctx, async ({ db: tx }) => {
      await move(x.id, "purchased")(tx);
      firstWrote();
      await new Promise<void>((resolve) => (commitFirst = resolve));
    });
    await wrote;
    const second = withTransaction(ctx, async ({ db: tx }) => move(x.id, "cancelled")(tx));
    await untilWaitingOnLock();
    await withTransaction(ctx, async ({ db: tx }) => move(y.id, "purchased")(tx));

    // The sender runs while X's purchase is still open: only Y's event is there to send.
    await sendDueWebhooks({ ctx: sender });
    expect(receiver.received.map((r) => [r.json.type, r.json.data.id])).toEqual([["shipment.purchased", y.id]]);

    commitFirst();
    await Promise.all([first, second]);
    await sendDueWebhooks({ ctx: sender });
    expect(receiver.received.map((r) => [r.json.type, r.json.data.id])).toEqual([
      ["shipment.purchased", y.id],
      ["shipment.purchased", x.id],
      ["shipment.cancelled", x.id],
    ]);
  });
});
