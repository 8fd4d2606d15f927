import "server-only";
import { recordAudit } from "@/lib/audit/record";
import { withTransaction, type DomainContext } from "@/lib/context";
import { connectionForCarrier, orgConnection } from "@/lib/connections/select-connections";
import { invokeConnection } from "@/lib/connections/invoke-connection";
import type { ConnectionRow } from "@/lib/connections/present";
import { CarrierFailureError } from "@/lib/errors";
import type { StoredTracker } from "@/lib/schemas/tracker";
import { findTrackerRow, loadStoredTracker } from "./load-trackers";
import type { TrackerRow } from "./present-tracker";
import { recordTracking, recordTrackingFailure } from "./record-tracking";
import { refreshTimeScale } from "./refresh/budget";

/** POST /v1/trackers/{id}/refresh: ask the carrier now and merge; a carrier failure changes nothing but is noted. */
export async function refreshTracker({ ctx, id }: { ctx: DomainContext; id: string }): Promise<StoredTracker> {
  const row = await findTrackerRow(ctx.db, ctx.org.id, id);
  const connection = await trackingConnection(ctx, row);
  const outcome = await invokeConnection(connection, "track", ctx.signal, (adapter, actx) =>
    adapter.track(actx, row.trackingNumber),
  );
  if (!outcome.ok) {
    await recordTrackingFailure(ctx.db, row, outcome.messages, { keepSchedule: true });
    throw new CarrierFailureError(outcome.messages);
  }
  const recorded = await withTransaction(ctx, async (txCtx) => {
    const merged = await recordTracking(txCtx.db, row, outcome.data, { timeScale: refreshTimeScale(connection) });
    await recordAudit(txCtx, {
      action: "tracker.refreshed",
      resourceId: row.id,
      summary: { from: row.status, to: merged.tracker.status },
    });
    return merged;
  });
  return loadStoredTracker(ctx.db, recorded.tracker);
}

/** The connection that created the tracker, or, if it is gone or inactive, the organization's active one for that carrier. */
async function trackingConnection(ctx: DomainContext, row: TrackerRow): Promise<ConnectionRow> {
  const own = await orgConnection({ ctx, id: row.carrierConnectionId });
  if (own?.active) return own;
  return connectionForCarrier({ ctx, carrierName: row.carrierName, capability: "track" });
}
