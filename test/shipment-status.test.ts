import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { events, shipments } from "@/lib/db/schema";
import { changeShipmentStatus, moveShipmentsWithTracking } from "@/lib/shipments/status";
import { makeOrg } from "./helpers";
import { createShipmentFor, purchaseFor } from "./factories";

const statusOf = async (id: string) => {
  const [row] = await (await getDb()).select().from(shipments).where(eq(shipments.id, id));
  return row!.status;
};

describe("the one way a shipment's status changes", () => {
  it("writes an allowed change with its other columns and reports it, from and to", async () => {
    const { key, orgId } = await makeOrg();
    const s = await createShipmentFor(key);
    const db = await getDb();
    const out = await db.transaction((tx) =>
      changeShipmentStatus(
        tx,
        [
          {
            orgId,
            shipmentId: s.id,
            to: "cancelled",
            allowed: (row) => row.status === "created",
            set: { messages: [] },
          },
        ],
        new Date(),
      ),
    );
    expect(out.transitions).toEqual([{ orgId, shipmentId: s.id, from: "created", to: "cancelled" }]);
    expect(out.rows.map((r) => [r.id, r.status])).toEqual([[s.id, "cancelled"]]);
    expect(await statusOf(s.id)).toBe("cancelled");
  });

  it("leaves a shipment the change is not allowed for, another organization's included, untouched", async () => {
    const { key, orgId } = await makeOrg();
    const other = await makeOrg();
    const s = await createShipmentFor(key);
    const db = await getDb();
    const out = await db.transaction((tx) =>
      changeShipmentStatus(
        tx,
        [
          { orgId, shipmentId: s.id, to: "cancelled", allowed: (row) => row.status === "purchased" },
          { orgId: other.orgId, shipmentId: s.id, to: "cancelled", allowed: () => true },
        ],
        new Date(),
      ),
    );
    expect(out).toEqual({ transitions: [], rows: [] });
    expect(await statusOf(s.id)).toBe("created");
  });

  it("with its check in SQL: one statement that reports from and to, or leaves the row when the check fails", async () => {
    const { key, orgId } = await makeOrg();
    const other = await makeOrg();
    const [a, b, c] = [await createShipmentFor(key), await createShipmentFor(key), await createShipmentFor(key)];
    const db = await getDb();
    const out = await db.transaction((tx) =>
      changeShipmentStatus(
        tx,
        [
          // Allowed, with a column besides; refused by its check; another organization's id; and a plain move in JS.
          { orgId, shipmentId: a.id, to: "cancelled", allowed: eq(shipments.status, "created"), set: { messages: [] } },
          { orgId, shipmentId: b.id, to: "cancelled", allowed: eq(shipments.status, "purchased") },
          { orgId: other.orgId, shipmentId: b.id, to: "cancelled", allowed: eq(shipments.status, "created") },
          { orgId, shipmentId: c.id, to: "cancelled", allowed: (row) => row.status === "created" },
        ],
        new Date(),
      ),
    );
    expect(out.transitions).toEqual([
      { orgId, shipmentId: a.id, from: "created", to: "cancelled" },
      { orgId, shipmentId: c.id, from: "created", to: "cancelled" },
    ]);
    expect(out.rows.map((r) => [r.id, r.status])).toEqual([
      [a.id, "cancelled"],
      [c.id, "cancelled"],
    ]);
    expect([await statusOf(a.id), await statusOf(b.id), await statusOf(c.id)]).toEqual([
      "cancelled",
      "created",
      "cancelled",
    ]);
    // Each move is an event, the SQL-checked one too.
    const written = await db.select().from(events).where(eq(events.orgId, orgId));
    expect(
      written
        .filter((e) => e.type === "shipment.cancelled")
        .map((e) => e.resourceId)
        .sort(),
    ).toEqual([a.id, c.id].sort());
  });

  it("moves shipments with their trackers in one batch, but never a created one", async () => {
    const { key, orgId } = await makeOrg();
    const bought = await createShipmentFor(key);
    expect((await purchaseFor(key, bought)).status).toBe(200);
    const draft = await createShipmentFor(key);
    const db = await getDb();
    const out = await db.transaction((tx) =>
      moveShipmentsWithTracking(
        tx,
        [
          { orgId, shipmentId: bought.id, to: "in_transit" },
          { orgId, shipmentId: draft.id, to: "in_transit" },
        ],
        new Date(),
      ),
    );
    expect(out.transitions).toEqual([{ orgId, shipmentId: bought.id, from: "purchased", to: "in_transit" }]);
    expect([await statusOf(bought.id), await statusOf(draft.id)]).toEqual(["in_transit", "created"]);
  });

  it("moves each shipment of one batch to its own status, and reports and announces real moves only", async () => {
    const { key, orgId } = await makeOrg();
    const [a, b, c] = [await createShipmentFor(key), await createShipmentFor(key), await createShipmentFor(key)];
    for (const s of [a, b, c]) expect((await purchaseFor(key, s)).status).toBe(200);
    const db = await getDb();
    const out = await db.transaction((tx) =>
      changeShipmentStatus(
        tx,
        [
          { orgId, shipmentId: a.id, to: "in_transit", allowed: () => true },
          { orgId, shipmentId: b.id, to: "lost", allowed: () => true },
          // Already purchased: written, but no transition and no event.
          { orgId, shipmentId: c.id, to: "purchased", allowed: () => true },
        ],
        new Date(),
      ),
    );
    expect(out.transitions).toEqual([
      { orgId, shipmentId: a.id, from: "purchased", to: "in_transit" },
      { orgId, shipmentId: b.id, from: "purchased", to: "lost" },
    ]);
    expect(out.rows.map((r) => [r.id, r.status]).sort()).toEqual(
      [
        [a.id, "in_transit"],
        [b.id, "lost"],
        [c.id, "purchased"],
      ].sort(),
    );
    expect([await statusOf(a.id), await statusOf(b.id), await statusOf(c.id)]).toEqual([
      "in_transit",
      "lost",
      "purchased",
    ]);
    const changed = async (id: string) =>
      (await db.select().from(events).where(eq(events.resourceId, id)))
        .filter((e) => e.type === "shipment.status_changed")
        .map((e) => (e.data as { status: string }).status);
    expect([await changed(a.id), await changed(b.id), await changed(c.id)]).toEqual([["in_transit"], ["lost"], []]);
  });

  it("tracking moves neither a cancelled nor a delivered shipment, nor one a purchase or cancellation holds", async () => {
    const { key, orgId } = await makeOrg();
    const db = await getDb();
    const bought = async () => {
      const s = await createShipmentFor(key);
      expect((await purchaseFor(key, s)).status).toBe(200);
      return s.id;
    };
    const now = new Date();
    const [cancelled, delivered, held, expired, voiding, free] = [
      await bought(),
      await bought(),
      await bought(),
      await bought(),
      await bought(),
      await bought(),
    ];
    await db.update(shipments).set({ status: "cancelled" }).where(eq(shipments.id, cancelled));
    await db.update(shipments).set({ status: "delivered" }).where(eq(shipments.id, delivered));
    await db
      .update(shipments)
      .set({ pendingOperation: "cancel", pendingUntil: new Date(now.getTime() + 60_000) })
      .where(eq(shipments.id, held));
    // A lease that ran out no longer holds the shipment.
    await db
      .update(shipments)
      .set({ pendingOperation: "cancel", pendingUntil: new Date(now.getTime() - 1000) })
      .where(eq(shipments.id, expired));
    const [row] = await db.select().from(shipments).where(eq(shipments.id, voiding));
    await db
      .update(shipments)
      .set({ meta: { ...row!.meta, cancel_attempt: { at: now.toISOString() } } })
      .where(eq(shipments.id, voiding));
    const ids = [cancelled, delivered, held, expired, voiding, free];
    const out = await db.transaction((tx) =>
      moveShipmentsWithTracking(
        tx,
        ids.map((shipmentId) => ({ orgId, shipmentId, to: "in_transit" as const })),
        now,
      ),
    );
    expect(out.transitions.map((t) => t.shipmentId).sort()).toEqual([expired, free].sort());
    expect(await Promise.all(ids.map(statusOf))).toEqual([
      "cancelled",
      "delivered",
      "purchased",
      "in_transit",
      "purchased",
      "in_transit",
    ]);
  });

  it("a lost shipment still follows a tracker that finds the parcel delivered", async () => {
    const { key, orgId } = await makeOrg();
    const s = await createShipmentFor(key);
    expect((await purchaseFor(key, s)).status).toBe(200);
    const db = await getDb();
    const move = (to: "lost" | "delivered") =>
      db.transaction((tx) => moveShipmentsWithTracking(tx, [{ orgId, shipmentId: s.id, to }], new Date()));
    await move("lost");
    expect(await statusOf(s.id)).toBe("lost");
    const found = await move("delivered");
    expect(found.transitions).toEqual([{ orgId, shipmentId: s.id, from: "lost", to: "delivered" }]);
  });

  it("an empty change is nothing, and tracking leaves a shipment already in the tracker's status unwritten", async () => {
    const { key, orgId } = await makeOrg();
    const s = await createShipmentFor(key);
    expect((await purchaseFor(key, s)).status).toBe(200);
    const db = await getDb();
    expect(await db.transaction((tx) => changeShipmentStatus(tx, [], new Date()))).toEqual({
      transitions: [],
      rows: [],
    });
    const [before] = await db.select().from(shipments).where(eq(shipments.id, s.id));
    const out = await db.transaction((tx) =>
      moveShipmentsWithTracking(tx, [{ orgId, shipmentId: s.id, to: "purchased" }], new Date(Date.now() + 60_000)),
    );
    expect(out).toEqual({ transitions: [], rows: [] });
    const [after] = await db.select().from(shipments).where(eq(shipments.id, s.id));
    expect(after!.updatedAt).toEqual(before!.updatedAt);
  });
});
