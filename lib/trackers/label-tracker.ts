import "server-only";
import { and, eq, getTableColumns, sql } from "drizzle-orm";
import { trackers } from "@/lib/db/schema";
import { newId } from "@/lib/db/ids";
import type { Tx } from "@/lib/db/tx";
import type { ConnectionRow } from "@/lib/connections/present";
import { refreshTimeScale } from "./refresh/budget";
import { FIRST_REFRESH_AFTER_PURCHASE_MS } from "./tracking-rules";
import { recordTrackerEvents } from "./tracker-events";

/**
 * The trackers of bought labels, written in the transaction of the purchase or cancellation that decides them;
 * lib/shipments calls these rather than writing the trackers table itself.
 */

/**
 * The tracker of a label just bought: created, or, when the organization already tracks that number with this
 * carrier (tracked before, or a carrier reusing numbers), linked to this shipment and started afresh. Returns its id.
 */
export async function trackNewLabel(
  tx: Tx,
  label: { orgId: string; shipmentId: string; trackingNumber: string; connection: ConnectionRow },
  now: Date,
): Promise<string> {
  const { connection } = label;
  const firstRefresh = new Date(now.getTime() + FIRST_REFRESH_AFTER_PURCHASE_MS * refreshTimeScale(connection));
  const [tracker] = await tx
    .insert(trackers)
    .values({
      id: newId("tracker"),
      orgId: label.orgId,
      carrierName: connection.carrierName,
      carrierId: connection.carrierId,
      carrierConnectionId: connection.id,
      trackingNumber: label.trackingNumber,
      status: "pending",
      testMode: connection.testMode,
      shipmentId: label.shipmentId,
      nextRefreshAt: firstRefresh,
    })
    .onConflictDoUpdate({
      target: [trackers.orgId, trackers.carrierName, trackers.trackingNumber],
      set: {
        shipmentId: label.shipmentId,
        status: "pending",
        nextRefreshAt: firstRefresh,
        retiredAt: null,
        refreshFailures: 0,
        updatedAt: now,
      },
    })
    // xmax is 0 on a row this statement inserted, and set on one it updated instead.
    .returning({ ...getTableColumns(trackers), inserted: sql<boolean>`xmax = 0` });
  const { inserted, ...row } = tracker!;
  await recordTrackerEvents(
    tx,
    [{ tracker: row, types: [inserted ? "tracker.created" : "tracker.updated"], fresh: inserted }],
    now,
  );
  return row.id;
}

/** A voided label will not move: its tracker is cancelled and never refreshed again. */
export async function stopTracking(tx: Tx, tracker: { orgId: string; id: string }, now: Date): Promise<void> {
  const stopped = await tx
    .update(trackers)
    .set({ status: "cancelled", nextRefreshAt: null, updatedAt: now })
    .where(and(eq(trackers.orgId, tracker.orgId), eq(trackers.id, tracker.id)))
    .returning();
  await recordTrackerEvents(
    tx,
    stopped.map((t) => ({ tracker: t, types: ["tracker.updated" as const] })),
    now,
  );
}
