import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { and, eq } from "drizzle-orm";
import { DELETE as deleteConnection } from "@/app/v1/connections/[id]/route";
import { GET as getShipment } from "@/app/v1/shipments/[id]/route";
import { POST as cancel } from "@/app/v1/shipments/[id]/cancel/route";
import { GET as label } from "@/app/v1/shipments/[id]/label/route";
import { GET as getTracker } from "@/app/v1/trackers/[id]/route";
import { sandboxAdapter } from "@/lib/carriers/sandbox/adapter";
import { getDb } from "@/lib/db/client";
import { carrierLedger, shipments } from "@/lib/db/schema";
import { log } from "@/lib/log";
import { call, makeOrg } from "./helpers";
import { addSandbox, createShipmentFor, purchaseFor } from "./factories";

/**
 * POST /v1/shipments/{id}/cancel (lib/shipments/cancel-shipment.ts) through its route: which statuses it cancels,
 * what the carrier is asked, what the client is told (status, error, the answer's messages) and what stays stored
 * when the carrier cannot void, refuses, or the shipment changes meanwhile. Lost answers: purchase-outcome-unknown.
 */

beforeAll(async () => {
  await getDb();
});
afterEach(() => vi.restoreAllMocks());

const cancelOf = (key: string, id: string) =>
  call(cancel, "POST", `/v1/shipments/${id}/cancel`, { key, params: { id } });

const show = async (key: string, id: string) =>
  (await call(getShipment, "GET", `/v1/shipments/${id}`, { key, params: { id } })).body;

const codes = (messages: { code: string; level: string }[]) => messages.map((m) => [m.code, m.level]);

/** A shipment bought from a sandbox connection of its own (`carrier_id`), as the client saw it. */
async function bought(carrier_id: string, config: Record<string, unknown> = {}) {
  const { key, orgId } = await makeOrg();
  const carrier = await addSandbox(key, carrier_id, config);
  const s = await createShipmentFor(key, { carrier_ids: [carrier.id] });
  const res = await purchaseFor(key, s);
  expect(res.status).toBe(200);
  return { key, orgId, carrier, s, shipment: res.body.shipment };
}

/** Whether the sandbox's books hold the label as voided. */
async function voidedAtCarrier(trackingNumber: string) {
  const db = await getDb();
  const [sale] = await db
    .select({ voidedAt: carrierLedger.voidedAt })
    .from(carrierLedger)
    .where(eq(carrierLedger.trackingNumber, trackingNumber));
  return sale!.voidedAt !== null;
}

/** The carrier operations logged (one line each), as [operation, outcome]. */
function carrierOperations(info: { mock: { calls: unknown[][] } }) {
  return info.mock.calls
    .map((c) => c[0] as Record<string, unknown>)
    .filter((l) => l.msg === "carrier_operation")
    .map((l) => [l.operation, l.outcome]);
}

describe("what can be cancelled", () => {
  it("a created shipment and a cancelled one: 200 with no messages, the carrier never asked", async () => {
    const { key } = await makeOrg();
    const s = await createShipmentFor(key);
    const voids = vi.spyOn(sandboxAdapter, "void");
    const first = await cancelOf(key, s.id);
    expect(first.status).toBe(200);
    expect(first.body.messages).toEqual([]);
    expect(first.body.shipment).toMatchObject({ status: "cancelled", messages: [] });
    const again = await cancelOf(key, s.id);
    expect(again.status).toBe(200);
    expect(again.body.messages).toEqual([]);
    expect(again.body.shipment).toMatchObject({ id: s.id, status: "cancelled", messages: [] });
    expect(voids).not.toHaveBeenCalled();
  });

  it("a shipment on its way: 409 naming its status, the label left alone", async () => {
    const { key, s, shipment } = await bought("moving");
    const db = await getDb();
    await db.update(shipments).set({ status: "in_transit" }).where(eq(shipments.id, s.id));
    const voids = vi.spyOn(sandboxAdapter, "void");
    const res = await cancelOf(key, s.id);
    expect(res.status).toBe(409);
    expect(res.body.errors[0]).toMatchObject({
      code: "state_conflict",
      message: "The shipment is in_transit; only created or purchased shipments can be cancelled.",
    });
    expect(voids).not.toHaveBeenCalled();
    expect(await voidedAtCarrier(shipment.tracking_number)).toBe(false);
    expect((await show(key, s.id)).status).toBe("in_transit");
  });
});

describe("cancelling a purchased shipment", () => {
  it("voids the label at the carrier, logged as a void", async () => {
    const { key, s, shipment } = await bought("voids");
    const info = vi.spyOn(log(), "info");
    const res = await cancelOf(key, s.id);
    expect(res.status).toBe(200);
    expect(res.body.shipment.status).toBe("cancelled");
    expect(carrierOperations(info)).toEqual([["void", "ok"]]);
    expect(await voidedAtCarrier(shipment.tracking_number)).toBe(true);
  });

  it("whose connection was deleted: 404 carrier_not_found saying where to void; nothing changes", async () => {
    const { key, carrier, s, shipment } = await bought("gone");
    const deleted = await call(deleteConnection, "DELETE", `/v1/connections/${carrier.id}`, {
      key,
      params: { id: carrier.id },
    });
    expect(deleted.status).toBeLessThan(300);
    const res = await cancelOf(key, s.id);
    expect(res.status).toBe(404);
    expect(res.body.errors[0]).toMatchObject({
      code: "carrier_not_found",
      message:
        "The connection that bought this label no longer exists; void the label in the sandbox account, or recreate the connection.",
    });
    expect((await show(key, s.id)).status).toBe("purchased");
    expect(await voidedAtCarrier(shipment.tracking_number)).toBe(false);
  });

  it("where the carrier has no void: cancelled here with a warning to ask the carrier for a refund", async () => {
    const { key, s, shipment } = await bought("novoid");
    const voidLabel = sandboxAdapter.void;
    Object.assign(sandboxAdapter, { void: undefined });
    let res;
    try {
      res = await cancelOf(key, s.id);
    } finally {
      Object.assign(sandboxAdapter, { void: voidLabel });
    }
    expect(res.status).toBe(200);
    const warning = {
      carrier_name: "sandbox",
      carrier_id: "novoid",
      code: "not_supported",
      message:
        "Sandbox labels cannot be voided through its API: the shipment is cancelled here only. Ask Sandbox for a refund of the unused label if it charges for it.",
      level: "warning",
      details: {},
    };
    expect(res.body.messages).toEqual([warning]);
    expect(res.body.shipment).toMatchObject({ status: "cancelled", label: null, messages: [warning] });
    expect(await voidedAtCarrier(shipment.tracking_number)).toBe(false);
  });

  it("a refused void: 424, the shipment stays purchased with its label on offer and no attempt left", async () => {
    const { key, s } = await bought("refuses", { fail_operations: ["void"] });
    const db = await getDb();
    const [before] = await db.select().from(shipments).where(eq(shipments.id, s.id));
    const res = await cancelOf(key, s.id);
    expect(res.status).toBe(424);
    expect(codes(res.body.messages)).toEqual([["carrier_unavailable", "error"]]);
    const stored = await show(key, s.id);
    expect(stored).toMatchObject({ status: "purchased", meta: before!.meta, messages: before!.messages });
    expect(stored.meta).not.toHaveProperty("cancel_attempt");
    const file = await call(label, "GET", `/v1/shipments/${s.id}/label`, { key, params: { id: s.id } });
    expect(file.status).toBe(200);
  });

  it("a shipment taken over while the carrier voided: 409, nothing recorded, its tracker still running", async () => {
    const { key, orgId, s, shipment } = await bought("overtaken");
    const db = await getDb();
    const realVoid = sandboxAdapter.void!.bind(sandboxAdapter);
    // Another process took the shipment over meanwhile (a claim of its own, with its own deadline).
    const later = new Date(Date.now() + 10 * 60 * 1000);
    vi.spyOn(sandboxAdapter, "void").mockImplementation(async (actx, req) => {
      await db
        .update(shipments)
        .set({ pendingUntil: later })
        .where(and(eq(shipments.orgId, orgId), eq(shipments.id, s.id)));
      return realVoid(actx, req);
    });
    const res = await cancelOf(key, s.id);
    expect(res.status).toBe(409);
    expect(res.body.errors[0]).toMatchObject({
      code: "state_conflict",
      message: "The shipment changed while it was being cancelled; fetch it and retry.",
    });
    const [row] = await db.select().from(shipments).where(eq(shipments.id, s.id));
    expect(row).toMatchObject({ status: "purchased", pendingOperation: "cancel", pendingUntil: later });
    const tracker = await call(getTracker, "GET", `/v1/trackers/${shipment.tracker_id}`, {
      key,
      params: { id: shipment.tracker_id },
    });
    expect(tracker.body.status).not.toBe("cancelled");
    expect(tracker.body.next_refresh_at).not.toBeNull();
  });
});
