import { describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import type { CarrierMessage, TrackerStatus, TrackingEvent, TrackingResult } from "@/lib/carriers/types";
import { getDb } from "@/lib/db/client";
import { events, trackers, trackingEvents } from "@/lib/db/schema";
import type { Db } from "@/lib/db/tx";
import * as merge from "@/lib/trackers/record-tracking";
import type { TrackerRow } from "@/lib/trackers/present-tracker";
import { loadStoredTracker } from "@/lib/trackers/load-trackers";
import { RETIRE_AFTER_MS, eventFingerprint } from "@/lib/trackers/tracking-rules";
import { makeOrg } from "./helpers";
import { createShipmentFor, purchaseFor } from "./factories";

/**
 * The tracking merge (lib/trackers/record-tracking.ts) where a slip goes unnoticed elsewhere: which events are new,
 * whether the newest event moved, what counts as a change a client would notice, the status when the carrier gives
 * none, and a failed refresh's bookkeeping.
 */

const HOUR = 3_600_000;
const t0 = new Date("2026-11-20T12:00:00Z");
const at = (hours: number) => new Date(t0.getTime() + hours * HOUR);

const scan = (status: TrackerStatus, when: Date, description = `Scan ${status}`): TrackingEvent => ({
  date: when.toISOString().slice(0, 10),
  time: when.toISOString().slice(11, 16),
  description,
  location: "Austin, TX, US",
  code: status,
  status,
  occurred_at: when.toISOString(),
});

const answer = (
  number: string,
  status: TrackerStatus,
  scans: TrackingEvent[],
  estimated: string | null = null,
): TrackingResult => ({ tracking_number: number, status, events: scans, estimated_delivery: estimated, meta: {} });

const record = (db: Db, tracker: TrackerRow, result: TrackingResult, options: { now?: Date; created?: boolean } = {}) =>
  db.transaction((tx) => merge.recordTracking(tx, tracker, result, { now: at(100), ...options }));

async function boughtTracker(key: string) {
  const s = await createShipmentFor(key);
  const bought = (await purchaseFor(key, s)).body.shipment;
  const db = await getDb();
  const [row] = await db.select().from(trackers).where(eq(trackers.id, bought.tracker_id));
  return { db, shipmentId: s.id, tracker: row! };
}

/** A tracker as the merge left it in the database. */
async function stored(db: Db, id: string) {
  const [row] = await db.select().from(trackers).where(eq(trackers.id, id));
  return row!;
}

/** The webhook events written about a tracker, as counts per type (events of one change share their instant). */
async function typesOf(db: Db, trackerId: string): Promise<Record<string, number>> {
  const rows = await db.select({ type: events.type }).from(events).where(eq(events.resourceId, trackerId));
  const counts: Record<string, number> = {};
  for (const { type } of rows) counts[type] = (counts[type] ?? 0) + 1;
  return counts;
}

describe("which events are new", () => {
  it("counts only the scans not stored before, and stores each once however often it is repeated", async () => {
    const { key } = await makeOrg();
    const { db, tracker } = await boughtTracker(key);
    const a = scan("picked_up", at(1));
    const b = scan("in_transit", at(2));
    const c = scan("out_for_delivery", at(3));
    // Carriers answer newest first, and repeat scans across pages.
    const first = await record(db, tracker, answer(tracker.trackingNumber, "in_transit", [b, a, b]));
    expect(first.newEvents).toBe(2);
    const second = await record(db, first.tracker, answer(tracker.trackingNumber, "out_for_delivery", [c, b, a]));
    expect(second.newEvents).toBe(1);
    const third = await record(db, second.tracker, answer(tracker.trackingNumber, "out_for_delivery", [c, b, a]));
    expect(third.newEvents).toBe(0);
    const rows = await db.select().from(trackingEvents).where(eq(trackingEvents.trackerId, tracker.id));
    expect(rows.map((r) => r.status).sort()).toEqual(["in_transit", "out_for_delivery", "picked_up"]);
  });

  it("keeps the same scan of two trackers apart", async () => {
    const { key } = await makeOrg();
    const one = await boughtTracker(key);
    const two = await boughtTracker(key);
    const same = scan("in_transit", at(1));
    const db = one.db;
    const [a, b] = await db.transaction((tx) =>
      merge.recordTrackings(
        tx,
        [
          { tracker: one.tracker, result: answer(one.tracker.trackingNumber, "in_transit", [same]) },
          { tracker: two.tracker, result: answer(two.tracker.trackingNumber, "in_transit", [same]) },
        ],
        { now: at(100) },
      ),
    );
    expect([a!.newEvents, b!.newEvents]).toEqual([1, 1]);
  });
});

describe("whether the newest event moved", () => {
  it("moves to the newest new scan, whatever order the carrier lists them in", async () => {
    const { key } = await makeOrg();
    const { db, tracker } = await boughtTracker(key);
    // Oldest first, then newest first: the newest new scan is the last event either way.
    const up = await record(
      db,
      tracker,
      answer(tracker.trackingNumber, "in_transit", [scan("picked_up", at(1)), scan("in_transit", at(5))]),
    );
    expect(up.tracker.lastEventAt).toEqual(at(5));
    const later = await record(
      db,
      up.tracker,
      answer(tracker.trackingNumber, "out_for_delivery", [
        scan("out_for_delivery", at(9)),
        scan("in_transit", at(7)),
        scan("in_transit", at(5)),
      ]),
    );
    expect(later.tracker.lastEventAt).toEqual(at(9));
    expect((await stored(db, tracker.id)).lastEventAt).toEqual(at(9));
  });

  it("stays put when the only new scan is older than the last one (a carrier filling in its history)", async () => {
    const { key } = await makeOrg();
    const { db, tracker } = await boughtTracker(key);
    const first = await record(db, tracker, answer(tracker.trackingNumber, "in_transit", [scan("in_transit", at(5))]));
    const backfilled = await record(
      db,
      first.tracker,
      answer(tracker.trackingNumber, "in_transit", [scan("in_transit", at(5)), scan("picked_up", at(2))]),
    );
    expect(backfilled.newEvents).toBe(1);
    expect(backfilled.tracker.lastEventAt).toEqual(at(5));
    expect((await stored(db, tracker.id)).lastEventAt).toEqual(at(5));
  });

  it("a tracker without any scan keeps no last event", async () => {
    const { key } = await makeOrg();
    const { db, tracker } = await boughtTracker(key);
    const out = await record(db, tracker, answer(tracker.trackingNumber, "pending", []));
    expect(out).toMatchObject({ newEvents: 0 });
    expect((await stored(db, tracker.id)).lastEventAt).toBeNull();
  });
});

describe("what a client would notice", () => {
  it("a new estimated delivery alone is a change: updated_at moves and tracker.updated is written", async () => {
    const { key } = await makeOrg();
    const { db, tracker } = await boughtTracker(key);
    const scans = [scan("in_transit", at(1))];
    const first = await record(db, tracker, answer(tracker.trackingNumber, "in_transit", scans, "2026-11-25"), {
      now: at(10),
    });
    const same = await record(db, first.tracker, answer(tracker.trackingNumber, "in_transit", scans, "2026-11-25"), {
      now: at(11),
    });
    expect(same.changed).toBe(false);
    expect((await stored(db, tracker.id)).updatedAt).toEqual(at(10));
    const moved = await record(db, same.tracker, answer(tracker.trackingNumber, "in_transit", scans, "2026-11-26"), {
      now: at(12),
    });
    expect(moved).toMatchObject({ changed: true, newEvents: 0 });
    expect(await stored(db, tracker.id)).toMatchObject({
      estimatedDelivery: "2026-11-26",
      updatedAt: at(12),
      refreshedAt: at(12),
    });
    expect(await typesOf(db, tracker.id)).toEqual({ "tracker.created": 1, "tracker.updated": 2 });
  });

  it("a new status alone is a change too", async () => {
    const { key } = await makeOrg();
    const { db, tracker } = await boughtTracker(key);
    const scans = [scan("in_transit", at(1))];
    const first = await record(db, tracker, answer(tracker.trackingNumber, "in_transit", scans), { now: at(10) });
    const held = await record(db, first.tracker, answer(tracker.trackingNumber, "on_hold", scans), { now: at(11) });
    expect(held).toMatchObject({ changed: true, newEvents: 0 });
    expect(await stored(db, tracker.id)).toMatchObject({ status: "on_hold", updatedAt: at(11) });
    expect(await typesOf(db, tracker.id)).toEqual({
      "tracker.created": 1,
      "tracker.updated": 2,
      "tracker.exception": 1,
    });
  });

  it("a tracker's first merge is tracker.created, whatever it found", async () => {
    const { key } = await makeOrg();
    const { db, tracker } = await boughtTracker(key);
    expect(await typesOf(db, tracker.id)).toEqual({ "tracker.created": 1 });
    await record(db, tracker, answer(tracker.trackingNumber, "delivered", [scan("delivered", at(1))]), {
      created: true,
    });
    // Not tracker.updated nor tracker.delivered: the creation event carries the tracker as it stands.
    expect(await typesOf(db, tracker.id)).toEqual({ "tracker.created": 2 });
  });
});

describe("the status when the carrier states none", () => {
  it("is the newest stored event's, not the oldest's", async () => {
    const { key } = await makeOrg();
    const { db, tracker } = await boughtTracker(key);
    const out = await record(
      db,
      tracker,
      answer(tracker.trackingNumber, "unknown", [scan("out_for_delivery", at(3)), scan("in_transit", at(1))]),
    );
    expect(out.tracker.status).toBe("out_for_delivery");
    // Next time the carrier again says nothing overall and nothing new: still the newest event's.
    const again = await record(db, out.tracker, answer(tracker.trackingNumber, "unknown", []));
    expect(again.tracker.status).toBe("out_for_delivery");
  });
});

describe("events of the same instant", () => {
  it("keep the carrier's order, and the status is the first of them", async () => {
    const { key } = await makeOrg();
    const { db, tracker } = await boughtTracker(key);
    // A carrier stamps two scans with one instant (UPS to the second, some to the minute) and lists the later one
    // first; the adapters keep that order for equal instants (lib/carriers/ups/tracking.ts). Descriptions are picked
    // so that the delivery's fingerprint sorts after the other's: an order by fingerprint puts it second.
    let n = 0;
    const pair = () => [scan("delivered", at(3), `Delivered ${n}`), scan("out_for_delivery", at(3), `Out ${n}`)];
    while (eventFingerprint(pair()[0]!) < eventFingerprint(pair()[1]!)) n++;
    const listed = [...pair(), scan("in_transit", at(1))];
    const out = await record(db, tracker, answer(tracker.trackingNumber, "unknown", listed));
    const shown = await loadStoredTracker(db, out.tracker);
    expect(shown.events.map((e) => e.description)).toEqual(listed.map((e) => e.description));
    expect(shown.status).toBe("delivered");
    expect(shown.events[0]!.status).toBe(shown.status);
  });
});

describe("retirement", () => {
  it("a tracker silent for 90 days is retired in the database: unknown, never due again", async () => {
    const { key } = await makeOrg();
    const { db, tracker } = await boughtTracker(key);
    const late = new Date(at(1).getTime() + RETIRE_AFTER_MS + HOUR);
    await record(db, tracker, answer(tracker.trackingNumber, "in_transit", [scan("in_transit", at(1))]), {
      now: late,
    });
    expect(await stored(db, tracker.id)).toMatchObject({ status: "unknown", nextRefreshAt: null, retiredAt: late });
  });

  it("a final tracker silent for 90 days stays as it is: a delivered parcel is not retired to unknown", async () => {
    const { key } = await makeOrg();
    const { db, tracker } = await boughtTracker(key);
    const delivered = [scan("delivered", at(1))];
    const late = new Date(at(1).getTime() + RETIRE_AFTER_MS + HOUR);
    const out = await record(db, tracker, answer(tracker.trackingNumber, "delivered", delivered), { now: late });
    expect(out.tracker).toMatchObject({ status: "delivered", retiredAt: null, nextRefreshAt: null });
    const lost = await boughtTracker(key);
    const gone = await record(db, lost.tracker, answer(lost.tracker.trackingNumber, "lost", [scan("lost", at(1))]), {
      now: late,
    });
    expect(gone.tracker).toMatchObject({ status: "lost", retiredAt: null, nextRefreshAt: null });
  });
});

describe("a failed refresh", () => {
  const failed: CarrierMessage[] = [
    {
      carrier_name: "sandbox",
      carrier_id: "sandbox",
      code: "carrier_timeout",
      message: "The carrier did not answer in time.",
      level: "error",
      details: {},
    },
  ];

  it("counts the failure, keeps the error and backs off; a later answer clears both", async () => {
    const { key } = await makeOrg();
    const { db, tracker } = await boughtTracker(key);
    const now = at(50);
    await merge.recordTrackingFailure(db, tracker, failed, { now });
    const once = await stored(db, tracker.id);
    expect(once).toMatchObject({ refreshFailures: 1, lastError: failed, status: tracker.status, retiredAt: null });
    expect(once.nextRefreshAt!.getTime()).toBeGreaterThan(now.getTime() + 13 * 60_000);
    expect(once.nextRefreshAt!.getTime()).toBeLessThan(now.getTime() + 17 * 60_000);
    await merge.recordTrackingFailure(db, once, failed, { now });
    const twice = await stored(db, tracker.id);
    expect(twice.refreshFailures).toBe(2);
    expect(twice.nextRefreshAt!.getTime()).toBeGreaterThan(now.getTime() + 27 * 60_000);

    await record(db, twice, answer(tracker.trackingNumber, "in_transit", [scan("in_transit", at(49))]), { now });
    expect(await stored(db, tracker.id)).toMatchObject({ refreshFailures: 0, lastError: null });
  });

  it("on demand keeps the background schedule", async () => {
    const { key } = await makeOrg();
    const { db, tracker } = await boughtTracker(key);
    await merge.recordTrackingFailure(db, tracker, failed, { now: at(50), keepSchedule: true });
    expect(await stored(db, tracker.id)).toMatchObject({ refreshFailures: 1, nextRefreshAt: tracker.nextRefreshAt });
  });

  it("retires a tracker silent for 90 days, but never a final one", async () => {
    const { key } = await makeOrg();
    const { db, tracker } = await boughtTracker(key);
    const late = new Date(tracker.createdAt.getTime() + RETIRE_AFTER_MS + HOUR);
    await merge.recordTrackingFailure(db, tracker, failed, { now: late, keepSchedule: true });
    expect(await stored(db, tracker.id)).toMatchObject({ status: "unknown", nextRefreshAt: null, retiredAt: late });

    const other = await boughtTracker(key);
    const lost = await record(db, other.tracker, answer(other.tracker.trackingNumber, "lost", []), { now: at(1) });
    await merge.recordTrackingFailure(db, lost.tracker, failed, {
      now: new Date(other.tracker.createdAt.getTime() + RETIRE_AFTER_MS + HOUR),
    });
    const kept = await db
      .select()
      .from(trackers)
      .where(and(eq(trackers.id, other.tracker.id), eq(trackers.orgId, other.tracker.orgId)));
    expect(kept[0]).toMatchObject({ status: "lost", retiredAt: null });
  });

  it("retires a tracker whose last event is 90 days old, unless a newer answer was merged during the call", async () => {
    const { key } = await makeOrg();
    const { db, tracker } = await boughtTracker(key);
    const seen = await record(db, tracker, answer(tracker.trackingNumber, "in_transit", [scan("in_transit", at(1))]), {
      now: at(1),
    });
    const late = new Date(at(1).getTime() + RETIRE_AFTER_MS + HOUR);
    await merge.recordTrackingFailure(db, seen.tracker, failed, { now: late });
    expect(await stored(db, tracker.id)).toMatchObject({ status: "unknown", retiredAt: late });

    const other = await boughtTracker(key);
    const read = await record(
      db,
      other.tracker,
      answer(other.tracker.trackingNumber, "in_transit", [scan("in_transit", at(1))]),
      { now: at(1) },
    );
    // While the failing call was out, another refresh merged a newer scan: the parcel is not silent after all.
    const recent = new Date(late.getTime() - HOUR);
    await record(db, read.tracker, answer(other.tracker.trackingNumber, "in_transit", [scan("in_transit", recent)]), {
      now: late,
    });
    await merge.recordTrackingFailure(db, read.tracker, failed, { now: late });
    expect(await stored(db, other.tracker.id)).toMatchObject({ status: "in_transit", retiredAt: null });
  });

  it("does not retire a tracker that became final during the carrier call (its label voided meanwhile)", async () => {
    const { key } = await makeOrg();
    const { db, tracker } = await boughtTracker(key);
    const late = new Date(tracker.createdAt.getTime() + RETIRE_AFTER_MS + HOUR);
    // The refresh read the tracker in transit; while the carrier took its time, the label was voided.
    await db
      .update(trackers)
      .set({ status: "cancelled", nextRefreshAt: null })
      .where(and(eq(trackers.id, tracker.id), eq(trackers.orgId, tracker.orgId)));
    await merge.recordTrackingFailure(db, tracker, failed, { now: late });
    expect(await stored(db, tracker.id)).toMatchObject({
      status: "cancelled",
      retiredAt: null,
      nextRefreshAt: null,
      refreshFailures: 1,
    });
  });
});

describe("the batch's edges", () => {
  it("an empty batch records nothing and answers nothing", async () => {
    const db = await getDb();
    expect(await db.transaction((tx) => merge.recordTrackings(tx, []))).toEqual([]);
  });

  it("a tracker deleted meanwhile is not found when merged alone", async () => {
    const { key } = await makeOrg();
    const { db, tracker } = await boughtTracker(key);
    await db.delete(trackers).where(eq(trackers.id, tracker.id));
    await expect(record(db, tracker, answer(tracker.trackingNumber, "in_transit", []))).rejects.toMatchObject({
      code: "not_found",
      message: `Tracker ${tracker.id} does not exist.`,
    });
  });

  it("an answer filed under the wrong organization is not merged, even in a batch that names both", async () => {
    const one = await makeOrg();
    const two = await makeOrg();
    const mine = await boughtTracker(one.key);
    const theirs = await boughtTracker(two.key);
    const alsoTheirs = await boughtTracker(two.key);
    const db = mine.db;
    const out = await db.transaction((tx) =>
      merge.recordTrackings(
        tx,
        [
          { tracker: mine.tracker, result: answer(mine.tracker.trackingNumber, "in_transit", []) },
          // Another organization's tracker presented as one of ours.
          {
            tracker: { ...theirs.tracker, orgId: one.orgId },
            result: answer(theirs.tracker.trackingNumber, "delivered", []),
          },
          { tracker: alsoTheirs.tracker, result: answer(alsoTheirs.tracker.trackingNumber, "in_transit", []) },
        ],
        { now: at(100) },
      ),
    );
    expect(out.map((r) => r.tracker.id)).toEqual([mine.tracker.id, alsoTheirs.tracker.id]);
    expect((await stored(db, theirs.tracker.id)).status).not.toBe("delivered");
  });
});

describe("a carrier on a simulated clock (timeScale)", () => {
  it("shortens the next refresh after a merge and after a failure alike", async () => {
    const { key } = await makeOrg();
    const { db, tracker } = await boughtTracker(key);
    const now = at(100);
    const out = await db.transaction((tx) =>
      merge.recordTracking(tx, tracker, answer(tracker.trackingNumber, "in_transit", []), {
        now,
        timeScale: 1 / 360,
      }),
    );
    // In transit: 1 h, scaled to 10 s (±10 %).
    // As written to the database, not only as answered.
    expect((await stored(db, tracker.id)).nextRefreshAt).toEqual(out.tracker.nextRefreshAt);
    const next = out.tracker.nextRefreshAt!.getTime() - now.getTime();
    expect(next).toBeGreaterThanOrEqual(9_000);
    expect(next).toBeLessThanOrEqual(11_000);
    await merge.recordTrackingFailure(db, out.tracker, [], { now, timeScale: 1 / 360 });
    // The first failure: 15 min, scaled to 2.5 s (±10 %).
    const retry = (await stored(db, tracker.id)).nextRefreshAt!.getTime() - now.getTime();
    expect(retry).toBeGreaterThanOrEqual(2_250);
    expect(retry).toBeLessThanOrEqual(2_750);
  });
});
