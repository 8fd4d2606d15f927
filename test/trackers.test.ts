import { afterEach, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { GET as getTrackerRoute, DELETE as deleteTracker } from "@/app/v1/trackers/[id]/route";
import { POST as refresh } from "@/app/v1/trackers/[id]/refresh/route";
import { GET as trackGet, POST as trackPost } from "@/app/v1/trackers/[id]/[tracking_number]/route";
import { GET as getShipment } from "@/app/v1/shipments/[id]/route";
import { sandboxAdapter } from "@/lib/carriers/sandbox/adapter";
import { makeTrackingNumber } from "@/lib/carriers/sandbox/tracking-number";
import { getDb } from "@/lib/db/client";
import { trackers, trackingEvents } from "@/lib/db/schema";
import { StoredTracker } from "@/lib/schemas/tracker";
import { call, makeOrg } from "./helpers";
import { addSandbox, createShipmentFor, purchaseFor } from "./factories";
import { captureLogs } from "./refresh-helpers";

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const ago = (hours: number) => new Date(Date.now() - hours * 3_600_000);
const create = (
  key: string,
  carrier: string,
  number: string,
  method: "POST" | "GET" = "POST",
  query?: Record<string, string>,
) =>
  call(method === "POST" ? trackPost : trackGet, method, `/v1/trackers/${carrier}/${number}`, {
    key,
    params: { id: carrier, tracking_number: number },
    query,
  });

describe("POST|GET /v1/trackers/{carrier_name}/{tracking_number}", () => {
  it("creates a tracker (201) with the carrier's events, then returns the same one (200) on POST and GET", async () => {
    const { key } = await makeOrg();
    const number = makeTrackingNumber({ purchasedAt: ago(24 * 10), scenario: 0 });
    const first = await create(key, "sandbox", number);
    expect(first.status).toBe(201);
    const t = StoredTracker.strict().parse(first.body);
    expect(t).toMatchObject({
      carrier_name: "sandbox",
      carrier_id: "sandbox",
      tracking_number: number,
      status: "delivered",
      delivered: true,
      test_mode: true,
    });
    expect(t.id).toMatch(/^trk_[0-9a-f]{32}$/);
    expect(t.events.length).toBeGreaterThan(5);
    expect(t.events[0]!.status).toBe("delivered");
    expect(t.next_refresh_at).toBeNull();
    const stamps = t.events.map((e) => `${e.date} ${e.time}`);
    expect(stamps).toEqual([...stamps].sort().reverse());

    const track = vi.spyOn(sandboxAdapter, "track");
    const second = await create(key, "sandbox", number);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    const viaGet = await create(key, "sandbox", number.toLowerCase(), "GET");
    expect(viaGet.status).toBe(200);
    expect(viaGet.body.id).toBe(t.id);
    expect(track).not.toHaveBeenCalled();
  });

  it("10 concurrent creates make one tracker", async () => {
    const { key, orgId } = await makeOrg();
    const number = makeTrackingNumber({ purchasedAt: ago(5), scenario: 2 });
    const answers = await Promise.all(Array.from({ length: 10 }, () => create(key, "sandbox", number)));
    const ids = new Set(answers.map((a) => a.body.id));
    expect(ids.size).toBe(1);
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(9);
    const db = await getDb();
    expect(await db.select().from(trackers).where(eq(trackers.orgId, orgId))).toHaveLength(1);
  });

  it("an unknown number is 404 with messages and stores nothing; an unknown carrier is carrier_not_found", async () => {
    const { key, orgId } = await makeOrg();
    const missing = await create(key, "sandbox", makeTrackingNumber({ purchasedAt: ago(5), scenario: 9 }));
    expect(missing.status).toBe(404);
    expect(missing.body.messages[0]).toMatchObject({
      code: "tracking_not_found",
      carrier_name: "sandbox",
      level: "error",
    });
    const nobody = await create(key, "nocarrier", "1Z999AA10123456784");
    expect(nobody.status).toBe(404);
    expect(nobody.body.errors[0].code).toBe("carrier_not_found");
    const bad = await create(key, "sandbox", "no!");
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe("tracking_number");
    const db = await getDb();
    expect(await db.select().from(trackers).where(eq(trackers.orgId, orgId))).toEqual([]);
  });

  it("a failing carrier is 424 and stores nothing", async () => {
    const { key, orgId } = await makeOrg();
    await addSandbox(key, "down", { fail_operations: ["track"] });
    const res = await create(key, "sandbox", makeTrackingNumber({ purchasedAt: ago(5) }), "POST", {
      carrier_id: "down",
    });
    expect(res.status).toBe(424);
    expect(res.body.messages[0]).toMatchObject({ carrier_id: "down", code: "carrier_unavailable" });
    const db = await getDb();
    expect(await db.select().from(trackers).where(eq(trackers.orgId, orgId))).toEqual([]);
  });
});

describe("GET, DELETE and refresh /v1/trackers/{id}", () => {
  it("refresh merges new events once, recomputes the status and moves the shipment", async () => {
    const { key } = await makeOrg();
    const s = await createShipmentFor(key);
    const bought = (await purchaseFor(key, s)).body.shipment;
    const id = bought.tracker_id as string;
    const first = await call(refresh, "POST", `/v1/trackers/${id}/refresh`, { key, params: { id } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: "pending", delivered: false });
    expect(first.body.events).toHaveLength(1);

    // Three simulated days later (the sandbox computes events from the clock) the parcel has arrived.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 3 * 86_400_000 });
    const later = await call(refresh, "POST", `/v1/trackers/${id}/refresh`, { key, params: { id } });
    expect(later.status).toBe(200);
    expect(later.body).toMatchObject({ status: "delivered", delivered: true, next_refresh_at: null });
    const again = await call(refresh, "POST", `/v1/trackers/${id}/refresh`, { key, params: { id } });
    expect(again.body.events).toEqual(later.body.events);
    const codes = later.body.events.map((e: { code: string }) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
    const db = await getDb();
    expect(await db.select().from(trackingEvents).where(eq(trackingEvents.trackerId, id))).toHaveLength(codes.length);
    const shipment = await call(getShipment, "GET", `/v1/shipments/${s.id}`, { key, params: { id: s.id } });
    expect(shipment.body.status).toBe("delivered");
  });

  it("a failed refresh is 424 and leaves the tracker as it was", async () => {
    const { key } = await makeOrg();
    const conn = await addSandbox(key, "wobbly");
    const number = makeTrackingNumber({ purchasedAt: ago(30), scenario: 2 });
    const created = await create(key, "sandbox", number, "POST", { carrier_id: "wobbly" });
    const { PATCH } = await import("@/app/v1/connections/[id]/route");
    await call(PATCH, "PATCH", `/v1/connections/${conn.id}`, {
      key,
      params: { id: conn.id },
      body: { config: { fail_operations: ["track"] } },
    });
    const id = created.body.id;
    const res = await call(refresh, "POST", `/v1/trackers/${id}/refresh`, { key, params: { id } });
    expect(res.status).toBe(424);
    expect(res.body.messages[0].code).toBe("carrier_unavailable");
    const after = await call(getTrackerRoute, "GET", `/v1/trackers/${id}`, { key, params: { id } });
    expect(after.body).toEqual(created.body);
  });

  it("refresh asks the organization's active connection when the tracker's own is inactive or deleted", async () => {
    const { key } = await makeOrg();
    const conn = await addSandbox(key, "old-account");
    const number = makeTrackingNumber({ purchasedAt: ago(30), scenario: 2 });
    const created = await create(key, "sandbox", number, "POST", { carrier_id: "old-account" });
    const id = created.body.id;
    const { PATCH, DELETE } = await import("@/app/v1/connections/[id]/route");
    // The old account would fail every call: only the organization's own sandbox (pace 360) answers.
    const patched = await call(PATCH, "PATCH", `/v1/connections/${conn.id}`, {
      key,
      params: { id: conn.id },
      body: { active: false, config: { fail_operations: ["track"] } },
    });
    expect(patched.status).toBe(200);
    const now = new Date();
    vi.useFakeTimers({ toFake: ["Date"], now });
    const logs = captureLogs();
    let inactive, deleted;
    try {
      inactive = await call(refresh, "POST", `/v1/trackers/${id}/refresh`, { key, params: { id } });
      expect((await call(DELETE, "DELETE", "", { key, params: { id: conn.id } })).status).toBe(200);
      deleted = await call(refresh, "POST", `/v1/trackers/${id}/refresh`, { key, params: { id } });
    } finally {
      logs.restore();
    }
    expect([inactive.status, deleted.status]).toEqual([200, 200]);
    expect(inactive.body).toMatchObject({ status: "in_transit", carrier_id: "old-account" });
    // An in-transit tracker's hour, on the sandbox's clock: 10 s (±10 %).
    const due = new Date(inactive.body.next_refresh_at).getTime() - now.getTime();
    expect(due).toBeGreaterThanOrEqual(9_000);
    expect(due).toBeLessThanOrEqual(11_000);
    const calls = logs.lines.filter((l) => l.msg === "carrier_operation");
    expect(calls.map((l) => [l.carrier_id, l.operation, l.outcome])).toEqual([
      ["sandbox", "track", "ok"],
      ["sandbox", "track", "ok"],
    ]);
  });

  it("delete forgets the tracker; its shipment keeps its status and loses tracker_id", async () => {
    const { key } = await makeOrg();
    const s = await createShipmentFor(key);
    const bought = (await purchaseFor(key, s)).body.shipment;
    const id = bought.tracker_id as string;
    const gone = await call(deleteTracker, "DELETE", `/v1/trackers/${id}`, { key, params: { id } });
    expect(gone.status).toBe(200);
    expect(gone.body.id).toBe(id);
    expect((await call(getTrackerRoute, "GET", `/v1/trackers/${id}`, { key, params: { id } })).status).toBe(404);
    expect((await call(deleteTracker, "DELETE", `/v1/trackers/${id}`, { key, params: { id } })).status).toBe(404);
    const shipment = await call(getShipment, "GET", `/v1/shipments/${s.id}`, { key, params: { id: s.id } });
    expect(shipment.body).toMatchObject({ status: "purchased", tracker_id: null });
  });
});
