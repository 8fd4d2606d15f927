import "server-only";
import { and, eq } from "drizzle-orm";
import { recordAudit } from "@/lib/audit/record";
import { withTransaction, type DomainContext } from "@/lib/context";
import { trackers } from "@/lib/db/schema";
import { newId } from "@/lib/db/ids";
import { isCarrierName } from "@/lib/carriers/names";
import { carriersForNumber } from "@/lib/carriers/detect";
import { getAdapter } from "@/lib/carriers/registry";
import { orgConnections } from "@/lib/connections/cache";
import { CarrierFailureError, CarrierNotFoundError } from "@/lib/errors";
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
  if (carrierName === DETECT_CARRIER) return createDetected({ ctx, trackingNumber, carrierId });
  if (!isCarrierName(carrierName)) throw new CarrierNotFoundError(`Unknown carrier ${excerpt(carrierName)}.`);
  const orgId = ctx.org.id;
  const existing = await findByNumber(ctx, carrierName, trackingNumber);
  if (existing) return { created: false, tracker: await loadStoredTracker(ctx.db, existing) };

  const { connection, result } = await trackAtCarrier({ ctx, carrierName, trackingNumber, carrierId });

  const now = new Date();
  const row = await withTransaction(ctx, async (txCtx) => {
    const tx = txCtx.db;
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
    await recordAudit(txCtx, {
      action: "tracker.created",
      resourceId: inserted.id,
      summary: { carrier: carrierName, connection_id: connection.id, test_mode: connection.testMode },
    });
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

/** The carrier segment that asks the service to tell the carrier from the number (docs/api.md, "Managed mode: trackers"). */
export const DETECT_CARRIER = "auto";

/**
 * A tracker for a number whose carrier the client did not name: the carriers its shape and check digit allow
 * (lib/carriers/detect.ts), among those the organization has an active tracking connection for (narrowed by
 * `carrierId`), in that order. A tracker already kept for the number under one of them is answered; otherwise each is
 * asked in turn until one knows the number (a carrier that does not is not an error while another may). No candidate
 * is carrier_not_found, saying why; every candidate not knowing it is tracking_not_found.
 */
async function createDetected({
  ctx,
  trackingNumber,
  carrierId,
}: {
  ctx: DomainContext;
  trackingNumber: string;
  carrierId?: string;
}): Promise<{ created: boolean; tracker: StoredTracker }> {
  const shaped = carriersForNumber(trackingNumber);
  const connected = new Set(
    (await orgConnections(ctx.db, ctx.org.id))
      .filter((r) => r.active && (!carrierId || r.carrierId === carrierId || r.id === carrierId))
      .filter((r) => getAdapter(r.carrierName)?.capabilities.includes("track"))
      .map((r) => r.carrierName),
  );
  const candidates = shaped.filter((c) => connected.has(c));
  if (candidates.length === 0) {
    throw new CarrierNotFoundError(
      shaped.length === 0
        ? `Cannot tell the carrier from ${excerpt(trackingNumber)}: name it (POST /v1/trackers/{carrier_name}/{tracking_number}).`
        : `${excerpt(trackingNumber)} looks like a ${shaped.join(" or ")} number, and no active connection${carrierId ? ` matching ${excerpt(carrierId)}` : ""} of that carrier can track it.`,
    );
  }
  for (const carrierName of candidates) {
    const existing = await findByNumber(ctx, carrierName, trackingNumber);
    if (existing) return { created: false, tracker: await loadStoredTracker(ctx.db, existing) };
  }
  let unknown: unknown;
  for (const carrierName of candidates) {
    try {
      return await createTracker({ ctx, carrierName, trackingNumber, carrierId });
    } catch (err) {
      if (!(err instanceof CarrierFailureError && err.code === "tracking_not_found")) throw err;
      unknown = err;
    }
  }
  throw unknown;
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
