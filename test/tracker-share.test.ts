import { describe, expect, it } from "vitest";
import { POST as share } from "@/app/v1/trackers/[id]/share/route";
import { DELETE as deleteTracker } from "@/app/v1/trackers/[id]/route";
import { POST as trackPost } from "@/app/v1/trackers/[id]/[tracking_number]/route";
import { makeTrackingNumber } from "@/lib/carriers/sandbox/tracking-number";
import { getDb } from "@/lib/db/client";
import { countTrackersByStatus } from "@/lib/trackers/count-by-status";
import { listTrackers } from "@/lib/trackers/list-trackers";
import { findPublicTracker } from "@/lib/trackers/public-tracker";
import { call, makeOrg, orgCtx } from "./helpers";
import { createShipmentFor, purchaseFor } from "./factories";

const ago = (hours: number) => new Date(Date.now() - hours * 3_600_000);

async function track(key: string, scenario: number, hours = 24 * 10) {
  const number = makeTrackingNumber({ purchasedAt: ago(hours), scenario });
  const res = await call(trackPost, "POST", `/v1/trackers/sandbox/${number}`, {
    key,
    params: { id: "sandbox", tracking_number: number },
  });
  expect(res.status).toBe(201);
  return res.body as { id: string; tracking_number: string };
}

const shareOf = (key: string | null, id: string) =>
  call(share, "POST", `/v1/trackers/${id}/share`, { key, params: { id } });

describe("POST /v1/trackers/{id}/share", () => {
  it("makes one public id, the same on every ask, even concurrent first asks", async () => {
    const { key } = await makeOrg();
    const t = await track(key, 0);
    const answers = await Promise.all(Array.from({ length: 8 }, () => shareOf(key, t.id)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    const ids = new Set(answers.map((a) => a.body.public_id));
    expect(ids.size).toBe(1);
    const [publicId] = ids;
    expect(publicId).toMatch(/^[0-9a-f]{32}$/);
    expect(publicId).not.toBe(t.id.slice(4));
    expect(answers[0]!.body.path).toBe(`/track/${publicId}`);
    expect((await shareOf(key, t.id)).body.public_id).toBe(publicId);
  });

  it("another organization's tracker is not found; no key is 401", async () => {
    const a = await makeOrg();
    const b = await makeOrg();
    const t = await track(a.key, 0);
    expect((await shareOf(b.key, t.id)).status).toBe(404);
    expect((await shareOf(null, t.id)).status).toBe(401);
  });

  it("the public view is found by the public id only, and is gone with the tracker", async () => {
    const { key } = await makeOrg();
    const t = await track(key, 0);
    const { public_id } = (await shareOf(key, t.id)).body;
    const db = await getDb();
    const view = await findPublicTracker(db, public_id);
    expect(view).toMatchObject({ tracking_number: t.tracking_number, status: "delivered" });
    expect(view!.events.length).toBeGreaterThan(3);
    expect(JSON.stringify(view)).not.toContain("trk_");
    expect(await findPublicTracker(db, t.id)).toBeNull();
    expect(await findPublicTracker(db, "0".repeat(32))).toBeNull();
    await call(deleteTracker, "DELETE", `/v1/trackers/${t.id}`, { key, params: { id: t.id } });
    expect(await findPublicTracker(db, public_id)).toBeNull();
  });
});

describe("the dashboard's tracker list: search and tab counts", () => {
  it("finds a tracker by its number (any case) or part of its shipment's reference, and counts statuses in one query", async () => {
    const { key, orgId } = await makeOrg();
    const delivered = await track(key, 0);
    await track(key, 7); // on hold
    const shipment = await createShipmentFor(key, { reference: "ORDER-4711" });
    const bought = await purchaseFor(key, shipment);
    expect(bought.status).toBe(200);
    const ctx = await orgCtx(orgId);
    const page = { limit: 50, offset: 0 };

    const byNumber = await listTrackers({ ctx, filters: { ...page, q: delivered.tracking_number.toLowerCase() } });
    expect(byNumber.results.map((r) => r.id)).toEqual([delivered.id]);
    const byReference = await listTrackers({ ctx, filters: { ...page, q: "order-47" } });
    expect(byReference.results.map((r) => r.shipment_id)).toEqual([shipment.id]);
    expect((await listTrackers({ ctx, filters: { ...page, q: "100%" } })).count).toBe(0);

    const counts = await countTrackersByStatus({ ctx, filters: {} });
    expect(counts.delivered).toBe(1);
    expect(counts.on_hold).toBe(1);
    expect(counts.pending).toBe(1);
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(3);
    const narrowed = await countTrackersByStatus({ ctx, filters: { q: "ORDER-4711" } });
    expect(Object.values(narrowed).reduce((a, b) => a + b, 0)).toBe(1);
  });
});
