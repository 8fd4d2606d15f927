import { describe, expect, it } from "vitest";
import { withTransaction } from "@/lib/context";
import type { Db, Tx } from "@/lib/db/tx";
import { changeShipmentStatus } from "@/lib/shipments/status";
import { sendDueWebhooks } from "@/lib/webhooks/send-due";
import { createShipmentFor } from "./factories";
import { makeOrg, orgCtx, systemCtx, untilWaitingOnLock, writesWaiting } from "./helpers";
import { createEndpoint, useWebhookReceivers } from "./webhook-helpers";

/**
 * docs/webhooks.md, "Order": an endpoint gets one resource's events in the order their changes committed, and
 * events of different resources in the order the sender found them committed. Concurrent transactions need real
 * Postgres (PGlite runs one transaction at a time, which orders everything trivially).
 */
const startReceiver = useWebhookReceivers();

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

    // X bought in a transaction that holds X's row and pauses before it writes anything; X cancelled meanwhile (it
    // must wait for X's row, or its events would be numbered before the purchase's); Y bought and committed.
    let commitFirst!: () => void;
    const gate = new Promise<void>((resolve) => (commitFirst = resolve));
    let holding!: () => void;
    const holds = new Promise<void>((resolve) => (holding = resolve));
    const first = withTransaction(ctx, async ({ db: tx }) =>
      move(x.id, "purchased")(writesWaiting(tx as unknown as Db, gate, holding) as unknown as Tx),
    );
    await holds;
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
