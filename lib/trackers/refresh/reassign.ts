import "server-only";
import { and, eq } from "drizzle-orm";
import { forOrganization, type SystemContext } from "@/lib/context";
import { trackers } from "@/lib/db/schema";
import { connectionForCarrier } from "@/lib/connections/select-connections";
import { connectionMessages } from "@/lib/connections/invoke-connection";
import { CarrierNotFoundError } from "@/lib/errors";
import { recordTrackingFailure } from "@/lib/trackers/record-tracking";
import { claimDueTrackers } from "./due-trackers";

/**
 * Trackers whose connection was deleted, deactivated or cannot track: each moves to its organization's active
 * connection of the same carrier and is due at once; with none, it keeps waiting (retried later, never dropped).
 */
export async function reassignOrphanTrackers(
  ctx: SystemContext,
  connectionId: string,
  now: Date,
): Promise<{ claimed: number; reassigned: number }> {
  const { db } = ctx;
  const rows = await claimDueTrackers(db, connectionId, 500, now, new Date(now.getTime() + 5 * 60_000));
  let reassigned = 0;
  for (const row of rows) {
    try {
      const next = await connectionForCarrier({
        ctx: forOrganization(ctx, row.orgId),
        carrierName: row.carrierName,
        capability: "track",
      });
      await db
        .update(trackers)
        .set({ carrierConnectionId: next.id, carrierId: next.carrierId, nextRefreshAt: now })
        .where(and(eq(trackers.orgId, row.orgId), eq(trackers.id, row.id)));
      reassigned++;
    } catch (err) {
      if (!(err instanceof CarrierNotFoundError)) throw err;
      await recordTrackingFailure(
        db,
        row,
        connectionMessages(row, [{ code: "carrier_not_found", message: err.message, level: "error" }]),
        { now },
      );
    }
  }
  return { claimed: rows.length, reassigned };
}
