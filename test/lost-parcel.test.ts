import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { GET as listEvents } from "@/app/v1/events/route";
import { GET as listShipments } from "@/app/v1/shipments/route";
import { GET as getShipment } from "@/app/v1/shipments/[id]/route";
import { GET as listTrackers } from "@/app/v1/trackers/route";
import { GET as getTracker } from "@/app/v1/trackers/[id]/route";
import type { TrackerStatus, TrackingResult } from "@/lib/carriers/types";
import { getDb } from "@/lib/db/client";
import { trackers } from "@/lib/db/schema";
import { recordTracking } from "@/lib/trackers/record-tracking";
import { call, makeOrg } from "./helpers";
import { createShipmentFor, purchaseFor } from "./factories";

const scan = (status: TrackerStatus, at: Date, description: string) => ({
  date: at.toISOString().slice(0, 10),
  time: at.toISOString().slice(11, 16),
  description,
  location: "Louisville, KY, US",
  code: status,
  status,
  occurred_at: at.toISOString(),
});

/** A bought sandbox label whose carrier then reports the parcel lost (the merge every refresh path runs). */
async function lostParcel() {
  const { key } = await makeOrg();
  const shipment = await createShipmentFor(key);
  const bought = (await purchaseFor(key, shipment)).body;
  const db = await getDb();
  const [row] = await db.select().from(trackers).where(eq(trackers.id, bought.tracker_id));
  const at = Date.now();
  const result: TrackingResult = {
    tracking_number: bought.tracking_number,
    status: "lost",
    events: [
      scan("in_transit", new Date(at - 86_400_000), "Departed facility"),
      scan("lost", new Date(at - 3_600_000), "Package lost; a claim can be filed"),
    ],
    estimated_delivery: null,
    meta: {},
  };
  const recorded = await db.transaction((tx) => recordTracking(tx, row!, result));
  return { key, shipmentId: shipment.id as string, trackerId: bought.tracker_id as string, recorded };
}

describe("a lost parcel (docs/api.md, Statuses)", () => {
  it("is a final tracker status, and the shipment says lost too", async () => {
    const { key, shipmentId, trackerId, recorded } = await lostParcel();
    expect(recorded.tracker).toMatchObject({ status: "lost", nextRefreshAt: null, retiredAt: null });

    const tracker = await call(getTracker, "GET", `/v1/trackers/${trackerId}`, { key, params: { id: trackerId } });
    expect(tracker.status).toBe(200);
    expect(tracker.body).toMatchObject({ status: "lost", delivered: false, next_refresh_at: null });
    expect(tracker.body.events[0]).toMatchObject({ status: "lost" });
    const shipment = await call(getShipment, "GET", `/v1/shipments/${shipmentId}`, { key, params: { id: shipmentId } });
    expect(shipment.body.status).toBe("lost");
  });

  it("is filtered by its own name, and is an exception and a shipment status change to webhooks", async () => {
    const { key, shipmentId, trackerId } = await lostParcel();
    const other = await createShipmentFor(key);
    await purchaseFor(key, other);

    const shipments = await call(listShipments, "GET", "/v1/shipments", { key, query: { status: "lost" } });
    expect(shipments.body.results.map((s: { id: string }) => s.id)).toEqual([shipmentId]);
    const found = await call(listTrackers, "GET", "/v1/trackers", { key, query: { status: "lost,delivered" } });
    expect(found.body.results.map((t: { id: string }) => t.id)).toEqual([trackerId]);

    const events = await call(listEvents, "GET", "/v1/events", { key, query: { resource_id: trackerId } });
    expect(events.body.results.map((e: { type: string }) => e.type).slice(0, 2)).toEqual([
      "tracker.exception",
      "tracker.updated",
    ]);
    const moved = await call(listEvents, "GET", "/v1/events", { key, query: { resource_id: shipmentId } });
    expect(moved.body.results[0]).toMatchObject({ type: "shipment.status_changed", data: { status: "lost" } });
  });

  it("reads in-transit in 2021-07, whose in-transit filter finds it", async () => {
    const { key, shipmentId, trackerId } = await lostParcel();
    const legacy = { "Shipwell-Version": "2021-07" };
    const tracker = await call(getTracker, "GET", `/v1/trackers/${trackerId}`, {
      key,
      params: { id: trackerId },
      headers: legacy,
    });
    expect(tracker.body.status).toBe("in-transit");
    expect(tracker.body.events.map((e: { status: string }) => e.status)).toEqual(["in-transit", "in-transit"]);
    const shipment = await call(getShipment, "GET", `/v1/shipments/${shipmentId}`, {
      key,
      params: { id: shipmentId },
      headers: legacy,
    });
    expect(shipment.body.status).toBe("in-transit");

    const inTransit = await call(listShipments, "GET", "/v1/shipments", {
      key,
      query: { status: "in-transit" },
      headers: legacy,
    });
    expect(inTransit.body.results.map((s: { id: string }) => s.id)).toEqual([shipmentId]);
    const trackersInTransit = await call(listTrackers, "GET", "/v1/trackers", {
      key,
      query: { status: "in-transit" },
      headers: legacy,
    });
    expect(trackersInTransit.body.results.map((t: { id: string }) => t.id)).toEqual([trackerId]);
  });
});
