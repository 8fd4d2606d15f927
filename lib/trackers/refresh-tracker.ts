import type { DomainContext } from "@/lib/context";
import { connectionForCarrier } from "@/lib/connections/select-connections";
import { findConnectionRow } from "@/lib/connections/find-connection";
import { invokeConnection } from "@/lib/connections/invoke-connection";
import type { ConnectionRow } from "@/lib/connections/present";
import type { DbOrTx } from "@/lib/db/tx";
import { CarrierFailureError, NotFoundError } from "@/lib/errors";
import type { StoredTracker } from "@/lib/schemas/tracker";
import { findTrackerRow, presentTrackerRow } from "./load-trackers";
import type { TrackerRow } from "./present-tracker";
import { recordTracking, recordTrackingFailure } from "./record-tracking";
import { refreshTimeScale } from "./refresh/budget";

/** POST /v1/trackers/{id}/refresh: ask the carrier now and merge; a carrier failure changes nothing but is noted. */
export async function refreshTracker({ ctx, id }: { ctx: DomainContext; id: string }): Promise<StoredTracker> {
  const row = await findTrackerRow(ctx.db, ctx.org.id, id);
  const connection = await trackingConnection(ctx.db, row);
  const outcome = await invokeConnection(connection, "track", ctx.signal, (adapter, actx) =>
    adapter.track(actx, row.trackingNumber),
  );
  if (!outcome.ok) {
    await recordTrackingFailure(ctx.db, row, outcome.messages, { keepSchedule: true });
    throw new CarrierFailureError(outcome.messages);
  }
  const recorded = await ctx.db.transaction((tx) =>
    recordTracking(tx, row, outcome.data, { timeScale: refreshTimeScale(connection) }),
  );
  return presentTrackerRow(ctx.db, recorded.tracker);
}

/** The connection that created the tracker, or, if it is gone or inactive, the organization's active one for that carrier. */
export async function trackingConnection(db: DbOrTx, row: TrackerRow): Promise<ConnectionRow> {
  const own = await findConnectionRow(db, row.orgId, row.carrierConnectionId).catch((err) => {
    if (err instanceof NotFoundError) return null;
    throw err;
  });
  if (own?.active) return own;
  return connectionForCarrier(db, row.orgId, row.carrierName, "track");
}
