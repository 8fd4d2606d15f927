import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { shipments } from "@/lib/db/schema";
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
});
