import { describe, expect, it } from "vitest";
import { and, asc, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { newId } from "@/lib/db/ids";
import { events, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import { withTransaction } from "@/lib/context";
import { recordEvents } from "@/lib/webhooks/outbox";
import { createShipmentFor, purchaseFor } from "./factories";
import { makeOrg, orgCtx } from "./helpers";

/** The outbox: events written with their change, fanned out to the endpoints that want them, in order. */

async function endpoint(
  orgId: string,
  enabledEvents: string[],
  more: Partial<typeof webhookEndpoints.$inferInsert> = {},
) {
  const db = await getDb();
  const id = newId("webhook");
  await db.insert(webhookEndpoints).values({
    id,
    orgId,
    url: "https://example.com/hooks",
    enabledEvents,
    testMode: true,
    apiVersion: "2026-11",
    secretEncrypted: "unused here",
    ...more,
  });
  return id;
}

async function eventsOf(orgId: string) {
  const db = await getDb();
  return db.select().from(events).where(eq(events.orgId, orgId)).orderBy(asc(events.seq));
}

async function deliveriesOf(endpointId: string) {
  const db = await getDb();
  return db
    .select({ eventId: webhookDeliveries.eventId, status: webhookDeliveries.status, type: events.type })
    .from(webhookDeliveries)
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .orderBy(asc(webhookDeliveries.id));
}

describe("the events outbox", () => {
  it("writes shipment.created, then the purchase's events, each with the resource as the API presents it", async () => {
    const { key, orgId } = await makeOrg();
    const all = await endpoint(orgId, ["*"]);
    const purchasedOnly = await endpoint(orgId, ["shipment.purchased"]);
    const live = await endpoint(orgId, ["*"], { testMode: false });
    const disabled = await endpoint(orgId, ["*"], { enabled: false, disabledReason: "user" });

    const shipment = await createShipmentFor(key);
    const bought = await purchaseFor(key, shipment);
    expect(bought.status).toBe(200);

    const written = await eventsOf(orgId);
    expect(written.map((e) => e.type)).toEqual(["shipment.created", "tracker.created", "shipment.purchased"]);
    const created = written[0]!;
    expect(created).toMatchObject({ resourceId: shipment.id, testMode: true });
    expect(created.data).toMatchObject({ id: shipment.id, status: "created", label: null });
    expect(written[2]!.data).toMatchObject({
      id: shipment.id,
      status: "purchased",
      tracking_number: expect.any(String),
    });
    expect(written[1]!.data).toMatchObject({ id: bought.body.tracker_id, status: "pending" });

    expect((await deliveriesOf(all)).map((d) => d.type)).toEqual([
      "shipment.created",
      "tracker.created",
      "shipment.purchased",
    ]);
    expect((await deliveriesOf(purchasedOnly)).map((d) => d.type)).toEqual(["shipment.purchased"]);
    expect(await deliveriesOf(live)).toEqual([]);
    expect(await deliveriesOf(disabled)).toEqual([]);
  });

  it("writes nothing for a change that rolled back", async () => {
    const { orgId } = await makeOrg();
    const hook = await endpoint(orgId, ["*"]);
    const ctx = await orgCtx(orgId);
    await expect(
      withTransaction(ctx, async ({ db: tx }) => {
        await recordEvents(tx, [
          { orgId, type: "shipment.created", resourceId: "shp_x", testMode: true, data: { id: "shp_x" } },
        ]);
        throw new Error("the change failed after its event was written");
      }),
    ).rejects.toThrow(/failed/);
    expect(await eventsOf(orgId)).toEqual([]);
    expect(await deliveriesOf(hook)).toEqual([]);
  });

  it("keeps organizations apart: an endpoint hears only its own organization", async () => {
    const a = await makeOrg();
    const b = await makeOrg();
    const hookB = await endpoint(b.orgId, ["*"]);
    await createShipmentFor(a.key);
    expect(await deliveriesOf(hookB)).toEqual([]);
    const db = await getDb();
    expect(
      await db
        .select()
        .from(events)
        .where(and(eq(events.orgId, b.orgId))),
    ).toEqual([]);
  });
});
