import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { countShipmentsByStatus } from "@/lib/shipments/count-by-status";
import { listShipments } from "@/lib/shipments/list-shipments";
import { changeShipmentStatus } from "@/lib/shipments/status";
import type { ShipmentStatus } from "@/lib/schemas/shipment";
import { makeOrg, orgCtx } from "./helpers";
import { createShipmentFor, purchaseFor } from "./factories";

async function setStatus(orgId: string, shipmentId: string, to: ShipmentStatus) {
  const db = await getDb();
  await db.transaction((tx) => changeShipmentStatus(tx, [{ orgId, shipmentId, to, allowed: () => true }], new Date()));
}

/** One organization with a draft, a purchased, a delivered and a cancelled shipment; another with a draft. */
async function orgWithShipments() {
  const { key, orgId } = await makeOrg();
  const draft = await createShipmentFor(key, { reference: "DRAFT-1" });
  const bought = await createShipmentFor(key, { reference: "BOUGHT-1" });
  const delivered = await createShipmentFor(key, { reference: "DELIVERED-1" });
  const cancelled = await createShipmentFor(key, { reference: "CANCELLED-1" });
  for (const s of [bought, delivered]) expect((await purchaseFor(key, s)).status).toBe(200);
  await setStatus(orgId, delivered.id, "delivered");
  await setStatus(orgId, cancelled.id, "cancelled");
  const other = await makeOrg();
  await createShipmentFor(other.key, { reference: "DRAFT-1" });
  return { ctx: await orgCtx(orgId), draft, bought };
}

const none: Record<ShipmentStatus, number> = {
  created: 0,
  purchased: 0,
  in_transit: 0,
  out_for_delivery: 0,
  delivered: 0,
  needs_attention: 0,
  delivery_failed: 0,
  lost: 0,
  cancelled: 0,
};

describe("countShipmentsByStatus (the shipments list's tab counts)", () => {
  it("counts the organization's shipments per status, every status present", async () => {
    const { ctx } = await orgWithShipments();
    expect(await countShipmentsByStatus({ ctx, filters: {} })).toEqual({
      ...none,
      created: 1,
      purchased: 1,
      delivered: 1,
      cancelled: 1,
    });
  });

  it("narrows by the list's own filters, so each tab's count is the length of that tab's list", async () => {
    const { ctx } = await orgWithShipments();
    const cases = [
      { q: "bought" },
      { carrier_name: "sandbox" },
      { created_after: new Date(Date.now() + 60_000) },
      { created_before: new Date(Date.now() + 60_000), q: "draft" },
    ];
    for (const filters of cases) {
      const counts = await countShipmentsByStatus({ ctx, filters });
      for (const status of Object.keys(none) as ShipmentStatus[]) {
        const list = await listShipments({ ctx, filters: { ...filters, status: [status], limit: 100, offset: 0 } });
        expect([filters, status, counts[status]]).toEqual([filters, status, list.count]);
      }
    }
    expect(await countShipmentsByStatus({ ctx, filters: { carrier_name: "sandbox" } })).toEqual({
      ...none,
      purchased: 1,
      delivered: 1,
    });
  });
});

describe("listShipments without labels (the dashboard's list)", () => {
  it("answers the same shipments with no label bytes", async () => {
    const { ctx, bought } = await orgWithShipments();
    const filters = { q: "bought", limit: 50, offset: 0 };
    const withLabels = await listShipments({ ctx, filters });
    const light = await listShipments({ ctx, filters, withLabels: false });
    expect(withLabels.results.map((s) => [s.id, typeof s.label])).toEqual([[bought.id, "string"]]);
    expect(light.results.map((s) => [s.id, s.label, s.tracking_number])).toEqual([
      [bought.id, null, withLabels.results[0]!.tracking_number],
    ]);
  });
});
