import { afterEach, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { TRACKER_STATUSES, type TrackerStatus, type TrackingResult } from "@/lib/carriers/types";
import { getDb } from "@/lib/db/client";
import { shipments, trackers } from "@/lib/db/schema";
import * as merge from "@/lib/trackers/record-tracking";
import type { Db } from "@/lib/db/tx";
import { cancelShipment } from "@/lib/shipments/cancel-shipment";
import { sandboxAdapter } from "@/lib/carriers/sandbox/adapter";
import { RETIRE_AFTER_MS, shipmentStatusFor } from "@/lib/trackers/tracking-rules";
import { makeOrg, orgCtx } from "./helpers";

// The merge runs inside its caller's transaction, as the refresh and the tracker verbs run it.
const recordTracking = (
  db: Db,
  ...args: Parameters<typeof merge.recordTracking> extends [unknown, ...infer R] ? R : never
) => db.transaction((tx) => merge.recordTracking(tx, ...args));
const recordTrackings = (
  db: Db,
  ...args: Parameters<typeof merge.recordTrackings> extends [unknown, ...infer R] ? R : never
) => db.transaction((tx) => merge.recordTrackings(tx, ...args));
import { createShipmentFor, purchaseFor } from "./factories";

const event = (status: TrackerStatus, at: Date, code = status) => ({
  date: at.toISOString().slice(0, 10),
  time: at.toISOString().slice(11, 16),
  description: `Scan ${code}`,
  location: "Austin, TX, US",
  code,
  status,
  occurred_at: at.toISOString(),
});

const result = (number: string, status: TrackerStatus, events = [event(status, new Date())]): TrackingResult => ({
  tracking_number: number,
  status,
  events,
  estimated_delivery: null,
  meta: {},
});

async function purchasedTracker(key: string) {
  const s = await createShipmentFor(key);
  const bought = (await purchaseFor(key, s)).body.shipment;
  const db = await getDb();
  const [row] = await db.select().from(trackers).where(eq(trackers.id, bought.tracker_id));
  return { shipmentId: s.id, tracker: row! };
}

const shipmentStatus = async (id: string) => {
  const db = await getDb();
  const [row] = await db.select({ status: shipments.status }).from(shipments).where(eq(shipments.id, id));
  return row!.status;
};

afterEach(() => vi.restoreAllMocks());

describe("tracker → shipment status (docs/api.md)", () => {
  it.each(TRACKER_STATUSES.filter((s) => s !== "cancelled"))(
    "a tracker turning %s moves a purchased shipment as the table says",
    async (status) => {
      const { key } = await makeOrg();
      const { shipmentId, tracker } = await purchasedTracker(key);
      const db = await getDb();
      const out = await db.transaction((tx) => recordTracking(tx, tracker, result(tracker.trackingNumber, status)));
      expect(out.tracker.status).toBe(status);
      expect(await shipmentStatus(shipmentId)).toBe(shipmentStatusFor(status) ?? "purchased");
    },
  );

  it("nothing leaves delivered: a later in_transit scan does not move the shipment back", async () => {
    const { key } = await makeOrg();
    const { shipmentId, tracker } = await purchasedTracker(key);
    const db = await getDb();
    const delivered = await recordTracking(db, tracker, result(tracker.trackingNumber, "delivered"));
    expect(await shipmentStatus(shipmentId)).toBe("delivered");
    await recordTracking(
      db,
      delivered.tracker,
      result(tracker.trackingNumber, "in_transit", [event("in_transit", new Date(Date.now() + 1000))]),
    );
    expect(await shipmentStatus(shipmentId)).toBe("delivered");
  });

  it("merging the same events twice stores them once and reports no change", async () => {
    const { key } = await makeOrg();
    const { tracker } = await purchasedTracker(key);
    const db = await getDb();
    const scans = [
      event("picked_up", new Date(Date.now() - 7_200_000)),
      event("in_transit", new Date(Date.now() - 3_600_000)),
    ];
    const first = await recordTracking(
      db,
      tracker,
      result(tracker.trackingNumber, "in_transit", [...scans, scans[0]!]),
    );
    expect(first).toMatchObject({ newEvents: 2, changed: true });
    const second = await recordTracking(db, first.tracker, result(tracker.trackingNumber, "in_transit", scans));
    expect(second).toMatchObject({ newEvents: 0, changed: false });
    expect(second.tracker.lastEventAt!.getTime()).toBe(new Date(scans[1]!.occurred_at).getTime());
  });

  it("retires a tracker with no new event for 90 days: unknown, never refreshed again", async () => {
    const { key } = await makeOrg();
    const { shipmentId, tracker } = await purchasedTracker(key);
    const db = await getDb();
    const old = new Date(Date.now() - 100 * 86_400_000);
    const first = await recordTracking(
      db,
      tracker,
      result(tracker.trackingNumber, "in_transit", [event("in_transit", old)]),
      { now: new Date(old.getTime() + 1000) },
    );
    expect(first.tracker.nextRefreshAt).not.toBeNull();
    const later = new Date(old.getTime() + RETIRE_AFTER_MS + 1000);
    const retired = await recordTracking(
      db,
      first.tracker,
      result(tracker.trackingNumber, "in_transit", [event("in_transit", old)]),
      { now: later },
    );
    expect(retired.tracker).toMatchObject({ status: "unknown", nextRefreshAt: null, retiredAt: later });
    expect(await shipmentStatus(shipmentId)).toBe("in_transit");
  });

  it("a return delivered back to the sender stays return_to_sender and is final", async () => {
    const { key } = await makeOrg();
    const { shipmentId, tracker } = await purchasedTracker(key);
    const db = await getDb();
    const returning = await recordTracking(db, tracker, result(tracker.trackingNumber, "return_to_sender"));
    expect(returning.tracker.nextRefreshAt).not.toBeNull();
    const back = await recordTracking(
      db,
      returning.tracker,
      result(tracker.trackingNumber, "delivered", [event("delivered", new Date(Date.now() + 1000))]),
    );
    expect(back.tracker).toMatchObject({ status: "return_to_sender", nextRefreshAt: null });
    expect(await shipmentStatus(shipmentId)).toBe("delivery_failed");
  });
});

describe("races between refresh and the shipment's own operations", () => {
  it("a refresh answer does not revive a tracker cancelled while the carrier was being asked", async () => {
    const { orgId, key } = await makeOrg();
    const { shipmentId, tracker: stale } = await purchasedTracker(key);
    await cancelShipment({ ctx: await orgCtx(orgId), id: shipmentId });
    const db = await getDb();
    const [out] = await recordTrackings(db, [{ tracker: stale, result: result(stale.trackingNumber, "in_transit") }]);
    expect(out!.tracker).toMatchObject({ status: "cancelled", nextRefreshAt: null });
    const [row] = await db.select().from(trackers).where(eq(trackers.id, stale.id));
    expect(row).toMatchObject({ status: "cancelled", nextRefreshAt: null });
    expect(await shipmentStatus(shipmentId)).toBe("cancelled");
  });

  it("a tracker deleted while the carrier was being asked is skipped, not an error", async () => {
    const { key } = await makeOrg();
    const { tracker } = await purchasedTracker(key);
    const db = await getDb();
    await db.delete(trackers).where(eq(trackers.id, tracker.id));
    expect(await recordTrackings(db, [{ tracker, result: result(tracker.trackingNumber, "in_transit") }])).toEqual([]);
  });

  it("a cancellation does not overwrite a status the parcel reached during the void (409)", async () => {
    const { orgId, key } = await makeOrg();
    const { shipmentId } = await purchasedTracker(key);
    const db = await getDb();
    const original = sandboxAdapter.void.bind(sandboxAdapter);
    vi.spyOn(sandboxAdapter, "void").mockImplementation(async (ctx, req) => {
      // Whatever moved it (an operator, a late write), the cancellation must not paper over it.
      await db.update(shipments).set({ status: "delivered" }).where(eq(shipments.id, shipmentId));
      return original(ctx, req);
    });
    await expect(cancelShipment({ ctx: await orgCtx(orgId, db), id: shipmentId })).rejects.toMatchObject({
      code: "state_conflict",
    });
    expect(await shipmentStatus(shipmentId)).toBe("delivered");
  });
});
