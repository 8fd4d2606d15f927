import "server-only";
import { and, eq } from "drizzle-orm";
import { withTransaction, type DomainContext } from "@/lib/context";
import { trackers } from "@/lib/db/schema";
import { newId } from "@/lib/db/ids";
import { isCarrierName } from "@/lib/carriers/names";
import { CarrierNotFoundError } from "@/lib/errors";
import type { StoredTracker } from "@/lib/schemas/tracker";
import { loadStoredTracker } from "./load-trackers";
import { recordTracking } from "./record-tracking";
import { trackAtCarrier } from "./track-at-carrier";
import { refreshTimeScale } from "./refresh/budget";
import { excerpt } from "@/lib/validation";

/**
 * POST|GET /v1/trackers/{carrier_name}/{tracking_number}: the organization's tracker for that pair, created on
 * first call (`created`) and returned as stored afterwards (the background refresh keeps it current, and
 * POST /v1/trackers/{id}/refresh asks now). The unique index on (org, carrier, number) makes concurrent first
 * calls end with one tracker. A number the carrier does not know is tracking_not_found and stores nothing.
 */
export async function createTracker({
  ctx,
  carrierName,
  trackingNumber,
  carrierId,
}: {
  ctx: DomainContext;
  carrierName: string;
  trackingNumber: string;
  carrierId?: string;
}): Promise<{ created: boolean; tracker: StoredTracker }> {
  if (!isCarrierName(carrierName)) throw new CarrierNotFoundError(`Unknown carrier ${excerpt(carrierName)}.`);
  const orgId = ctx.org.id;
  const existing = await findByNumber(ctx, carrierName, trackingNumber);
  if (existing) return { created: false, tracker: await loadStoredTracker(ctx.db, existing) };

  const { connection, result } = await trackAtCarrier({ ctx, carrierName, trackingNumber, carrierId });

  const now = new Date();
  const row = await withTransaction(ctx, async ({ db: tx }) => {
    const [inserted] = await tx
      .insert(trackers)
      .values({
        id: newId("tracker"),
        orgId,
        carrierName,
        carrierId: connection.carrierId,
        carrierConnectionId: connection.id,
        trackingNumber,
        status: "unknown",
        testMode: connection.testMode,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (!inserted) return null;
    return (await recordTracking(tx, inserted, result, { now, timeScale: refreshTimeScale(connection), created: true }))
      .tracker;
  });
  if (!row) {
    // Another call created it between our look and our insert: theirs is the tracker.
    const winner = await findByNumber(ctx, carrierName, trackingNumber);
    return { created: false, tracker: await loadStoredTracker(ctx.db, winner!) };
  }
  return { created: true, tracker: await loadStoredTracker(ctx.db, row) };
}

async function findByNumber(ctx: DomainContext, carrierName: string, trackingNumber: string) {
  const [row] = await ctx.db
    .select()
    .from(trackers)
    .where(
      and(
        eq(trackers.orgId, ctx.org.id),
        eq(trackers.carrierName, carrierName),
        eq(trackers.trackingNumber, trackingNumber),
      ),
    );
  return row ?? null;
}
