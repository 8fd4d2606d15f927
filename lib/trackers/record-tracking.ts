import "server-only";
import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { trackers, trackingEvents } from "@/lib/db/schema";
import { inOneTrip, type DbOrTx, type Tx } from "@/lib/db/tx";
import type { CarrierMessage, TrackerStatus, TrackingResult } from "@/lib/carriers/types";
import { NotFoundError } from "@/lib/errors";
import { rowsOf } from "@/lib/db/rows";
import { NEWER_OF_AN_INSTANT } from "./load-trackers";
import type { TrackerRow } from "./present-tracker";
import { moveShipmentsWithTracking } from "@/lib/shipments/status";
import {
  FINAL_TRACKER_STATUSES,
  eventFields,
  failureRetryAt,
  isDeliveredBack,
  isStale,
  mergedStatus,
  nextRefreshAt,
  shipmentStatusFor,
} from "./tracking-rules";
import { mergeEventTypes, recordTrackerEvents } from "./tracker-events";

export interface RecordedTracking {
  tracker: TrackerRow;
  /** Events not seen before. */
  newEvents: number;
  /** Anything a client would notice: new events, status or estimated delivery. */
  changed: boolean;
}

export interface TrackingAnswer {
  tracker: TrackerRow;
  result: TrackingResult;
}

interface MergeOptions {
  now?: Date;
  timeScale?: number;
  /** The tracker was created in this transaction: its first merge is `tracker.created`, not an update. */
  created?: boolean;
}

/** One tracker: recordTrackings with a batch of one (not found if it was deleted meanwhile). */
export async function recordTracking(
  db: Tx,
  tracker: TrackerRow,
  result: TrackingResult,
  options: MergeOptions = {},
): Promise<RecordedTracking> {
  const [recorded] = await recordTrackings(db, [{ tracker, result }], options);
  // Deleted while the carrier was being asked.
  if (!recorded) throw new NotFoundError(`Tracker ${tracker.id} does not exist.`);
  return recorded;
}

/**
 * Merges carriers' answers into stored trackers (docs/api.md, "Managed mode: trackers"): new events stored once (the fingerprint key makes
 * a repeated scan a no-op), status recomputed, next due time set from it, a tracker silent for 90 days retired,
 * and linked shipments moved. Used by tracker creation, refresh on demand and the background refresh. A batch
 * costs the same few statements as one tracker; run it inside a transaction so trackers and shipments move together.
 */
export async function recordTrackings(
  db: Tx,
  given: TrackingAnswer[],
  { now = new Date(), timeScale = 1, created = false }: MergeOptions = {},
): Promise<RecordedTracking[]> {
  if (given.length === 0) return [];
  // Merge into the trackers as they are now, locked: between the carrier call and this write a tracker may have
  // been cancelled (a voided label) or deleted, and the answer must not undo either.
  const current = await db
    .select()
    .from(trackers)
    .where(
      and(
        inArray(trackers.orgId, [...new Set(given.map((a) => a.tracker.orgId))]),
        inArray(
          trackers.id,
          given.map((a) => a.tracker.id),
        ),
      ),
    )
    .for("update");
  const byId = new Map(current.map((t) => [t.id, t]));
  const answers = given.flatMap((a) => {
    const tracker = byId.get(a.tracker.id);
    return tracker && tracker.orgId === a.tracker.orgId ? [{ tracker, result: a.result }] : [];
  });
  if (answers.length === 0) return [];
  const events = new Map<string, Record<string, string | number | null>>();
  for (const { tracker, result } of answers) {
    for (const { occurredAt, ...e } of result.events.map(eventFields)) {
      const row = { tracker_id: tracker.id, org_id: tracker.orgId, occurred_at: occurredAt.toISOString(), ...e };
      events.set(`${tracker.id}:${e.fingerprint}`, { ...row, ord: events.size });
    }
  }
  // Like the update below, the rows travel as one JSON document: building a multi-row VALUES list parameter by
  // parameter cost more CPU than the database spent on it.
  const inserted =
    events.size === 0
      ? []
      : rowsOf<{ tracker_id: string; occurred_at: string | Date }>(
          await db.execute(sql`
            insert into ${trackingEvents} (tracker_id, org_id, fingerprint, occurred_at, date, time, description, location, code, status)
            select tracker_id, org_id, fingerprint, occurred_at, date, time, description, location, code, status
            from jsonb_to_recordset(${JSON.stringify([...events.values()])}::jsonb) as e(
              tracker_id text, org_id text, fingerprint text, occurred_at timestamptz, date text, time text,
              description text, location text, code text, status text, ord int)
            -- Carriers list newest first: written last to first, the first listed of an instant gets the higher seq.
            order by ord desc
            on conflict do nothing
            returning tracker_id, occurred_at`),
        ).map((r) => ({ trackerId: r.tracker_id, at: new Date(r.occurred_at) }));
  const fresh = new Map<string, { count: number; newest: Date }>();
  for (const e of inserted) {
    const seen = fresh.get(e.trackerId);
    if (!seen) fresh.set(e.trackerId, { count: 1, newest: e.at });
    else {
      seen.count++;
      if (e.at > seen.newest) seen.newest = e.at;
    }
  }
  const newestStatus = await newestEventStatuses(
    db,
    answers.filter((a) => a.result.status === "unknown").map((a) => a.tracker),
  );

  const recorded = answers.map(({ tracker, result }): RecordedTracking => {
    const added = fresh.get(tracker.id);
    const lastEventAt =
      added && (!tracker.lastEventAt || added.newest > tracker.lastEventAt) ? added.newest : tracker.lastEventAt;
    let status = mergedStatus(result.status, newestStatus.get(tracker.id) ?? null, tracker.status);
    let nextRefresh = isDeliveredBack(result.status, tracker.status) ? null : nextRefreshAt(status, now, { timeScale });
    let retiredAt: Date | null = null;
    if (!FINAL_TRACKER_STATUSES.has(status) && isStale(lastEventAt, tracker.createdAt, now)) {
      // Silent for 90 days (docs/api.md, "Background tracker refresh"), the parcel's fate is unknown and asking again is pointless.
      status = "unknown";
      nextRefresh = null;
      retiredAt = now;
    }
    const estimatedDelivery = result.estimated_delivery;
    const changed = !!added || status !== tracker.status || estimatedDelivery !== tracker.estimatedDelivery;
    return {
      tracker: {
        ...tracker,
        status,
        estimatedDelivery,
        lastEventAt,
        refreshedAt: now,
        nextRefreshAt: nextRefresh,
        retiredAt,
        refreshFailures: 0,
        lastError: null,
        updatedAt: changed ? now : tracker.updatedAt,
      },
      newEvents: added?.count ?? 0,
      changed,
    };
  });

  // One statement for the whole batch: each row's new values travel as one JSON document. It goes out with the
  // first statement of the outbox's (which reads the trackers' events, not these columns): one round trip for both.
  const rows = recorded.map(({ tracker: t }) => ({
    id: t.id,
    org_id: t.orgId,
    status: t.status,
    eta: t.estimatedDelivery,
    last_event_at: t.lastEventAt?.toISOString() ?? null,
    next: t.nextRefreshAt?.toISOString() ?? null,
    retired: t.retiredAt?.toISOString() ?? null,
    updated: t.updatedAt.toISOString(),
  }));
  const updating = db.execute(sql`
    update ${trackers} set
      status = d.status, estimated_delivery = d.eta, last_event_at = d.last_event_at, refreshed_at = ${now.toISOString()}::timestamptz,
      next_refresh_at = d.next, retired_at = d.retired, refresh_failures = 0, last_error = null, updated_at = d.updated
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      as d(id text, org_id text, status text, eta text, last_event_at timestamptz, next timestamptz, retired timestamptz, updated timestamptz)
    where ${trackers.id} = d.id and ${trackers.orgId} = d.org_id`);
  // Trackers' events before their shipments' (followTrackers): a client hears the parcel moved, then the shipment.
  await inOneTrip([
    updating,
    recordTrackerEvents(
      db,
      recorded.map((r, i) => ({
        tracker: r.tracker,
        types: created ? ["tracker.created"] : mergeEventTypes(answers[i]!.tracker, r.tracker, r.changed),
      })),
      now,
    ),
  ]);
  await followTrackers(
    db,
    recorded.map((r) => r.tracker),
    now,
  );
  return recorded;
}

async function newestEventStatuses(db: DbOrTx, of: TrackerRow[]): Promise<Map<string, TrackerStatus>> {
  if (of.length === 0) return new Map();
  const orgIds = [...new Set(of.map((t) => t.orgId))];
  const trackerIds = of.map((t) => t.id);
  const rows = await db
    .selectDistinctOn([trackingEvents.trackerId], {
      trackerId: trackingEvents.trackerId,
      status: trackingEvents.status,
    })
    .from(trackingEvents)
    .where(and(inArray(trackingEvents.orgId, orgIds), inArray(trackingEvents.trackerId, trackerIds)))
    .orderBy(trackingEvents.trackerId, desc(trackingEvents.occurredAt), NEWER_OF_AN_INSTANT);
  return new Map(rows.map((r) => [r.trackerId, r.status]));
}

/**
 * Linked shipments follow their trackers (the rules are lib/shipments/status.ts's), for every linked tracker, changed
 * or not, so a shipment linked to a tracker that was already moving catches up.
 */
async function followTrackers(tx: Tx, refreshed: TrackerRow[], now: Date): Promise<void> {
  const moves = refreshed.flatMap((t) => {
    const to = shipmentStatusFor(t.status);
    return t.shipmentId && to ? [{ orgId: t.orgId, shipmentId: t.shipmentId, to }] : [];
  });
  await moveShipmentsWithTracking(tx, moves, now);
}

/**
 * A refresh that failed for this tracker (the carrier refused the number, timed out, …): nothing the client sees
 * changes; the error is kept, the next try backs off (a failed refresh on demand keeps the background schedule),
 * and a tracker silent for 90 days is retired all the same.
 */
export async function recordTrackingFailure(
  db: DbOrTx,
  tracker: TrackerRow,
  messages: CarrierMessage[],
  { now = new Date(), timeScale = 1, keepSchedule = false }: MergeOptions & { keepSchedule?: boolean } = {},
): Promise<void> {
  const failures = tracker.refreshFailures + 1;
  // Final statuses (cancelled among them) are never retired: their story is told.
  const retire = !FINAL_TRACKER_STATUSES.has(tracker.status) && isStale(tracker.lastEventAt, tracker.createdAt, now);
  const row = and(eq(trackers.orgId, tracker.orgId), eq(trackers.id, tracker.id));
  // Decided from the tracker as read before the carrier call: written only if it is still so. Another write meanwhile
  // (its label voided, a merge of a newer answer) made the decision stale: the failure is counted, the rest is theirs.
  const asRead = and(
    row,
    eq(trackers.status, tracker.status),
    tracker.lastEventAt === null ? isNull(trackers.lastEventAt) : eq(trackers.lastEventAt, tracker.lastEventAt),
  );
  const written = await db
    .update(trackers)
    .set({
      refreshFailures: failures,
      lastError: messages,
      ...(retire
        ? { status: "unknown" as const, nextRefreshAt: null, retiredAt: now, updatedAt: now }
        : keepSchedule
          ? {}
          : { nextRefreshAt: failureRetryAt(failures, now, { timeScale }) }),
    })
    .where(asRead)
    .returning({ id: trackers.id });
  if (written.length === 0) {
    await db
      .update(trackers)
      .set({ refreshFailures: sql`${trackers.refreshFailures} + 1`, lastError: messages })
      .where(row);
  }
}
