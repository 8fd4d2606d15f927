import "server-only";
import type { TrackerStatus } from "@/lib/carriers/types";
import type { Tx } from "@/lib/db/tx";
import type { EventType } from "@/lib/schemas/event";
import { recordEvents } from "@/lib/webhooks/outbox";
import { loadStoredTrackers } from "./load-trackers";
import { presentStoredTracker, type TrackerRow } from "./present-tracker";

/** Statuses that need someone to act: `tracker.exception` (docs/webhooks.md). */
const EXCEPTIONS: ReadonlySet<TrackerStatus> = new Set(["on_hold", "delivery_failed", "return_to_sender", "lost"]);

/**
 * The events of a tracker merge, from what it was to what it is: `tracker.updated` for new events, a new status or
 * estimated delivery, then `tracker.delivered` or `tracker.exception` when the status became one of those.
 */
export function mergeEventTypes(before: TrackerRow, after: TrackerRow, changed: boolean): EventType[] {
  if (!changed) return [];
  const types: EventType[] = ["tracker.updated"];
  if (after.status !== before.status) {
    if (after.status === "delivered") types.push("tracker.delivered");
    else if (EXCEPTIONS.has(after.status)) types.push("tracker.exception");
  }
  return types;
}

/**
 * Writes trackers' events to the outbox in the caller's transaction, each with the tracker as it stands now. `fresh`
 * marks a tracker this transaction has just inserted: it has no tracking events yet, so none are read for it.
 */
export async function recordTrackerEvents(
  tx: Tx,
  items: { tracker: TrackerRow; types: EventType[]; fresh?: boolean }[],
  now: Date,
): Promise<void> {
  const wanted = items.filter((i) => i.types.length > 0);
  if (wanted.length === 0) return;
  const byOrg = new Map<string, TrackerRow[]>();
  const presented = new Map<string, Record<string, unknown>>();
  for (const { tracker, fresh } of wanted) {
    if (fresh) presented.set(tracker.id, presentStoredTracker(tracker, []));
    else byOrg.set(tracker.orgId, [...(byOrg.get(tracker.orgId) ?? []), tracker]);
  }
  for (const [orgId, rows] of byOrg) {
    for (const t of await loadStoredTrackers(tx, orgId, rows)) presented.set(t.id!, t);
  }
  await recordEvents(
    tx,
    wanted.flatMap(({ tracker, types }) =>
      types.map((type) => ({
        orgId: tracker.orgId,
        type,
        resourceId: tracker.id,
        testMode: tracker.testMode,
        data: presented.get(tracker.id)!,
      })),
    ),
    now,
  );
}
