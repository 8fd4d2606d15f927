import "server-only";
import { and, desc, eq } from "drizzle-orm";
import { recordAudit } from "@/lib/audit/record";
import { withTransaction, type DomainContext } from "@/lib/context";
import { trackers } from "@/lib/db/schema";
import { newId } from "@/lib/db/ids";
import { isCarrierName } from "@/lib/carriers/names";
import { carriersForNumber } from "@/lib/carriers/detect";
import { getAdapter } from "@/lib/carriers/registry";
import { orgConnections } from "@/lib/connections/cache";
import { namesConnection } from "@/lib/connections/select-connections";
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
const DETECT_CARRIER = "auto";

/**
 * A tracker for a number whose carrier the client did not name. A tracker the organization already keeps for the
 * number is answered, whichever carrier it is under (a Canada Post PIN fits no published format, a connection may
 * have gone inactive since). Otherwise the candidates are the carriers its shape and check digit allow
 * (lib/carriers/detect.ts) that the organization has an active tracking connection for (narrowed by `carrierId`),
 * in that order, each asked in turn until one knows the number: one that does not, or that fails (throttled, down),
 * is not the end while another may know it. No candidate is carrier_not_found, saying why; when none knows it, a
 * carrier's failure is answered before tracking_not_found (the number may be that carrier's).
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
  const [kept] = await ctx.db
    .select()
    .from(trackers)
    .where(and(eq(trackers.orgId, ctx.org.id), eq(trackers.trackingNumber, trackingNumber)))
    .orderBy(desc(trackers.createdAt))
    .limit(1);
  if (kept) return { created: false, tracker: await loadStoredTracker(ctx.db, kept) };
  const shaped = carriersForNumber(trackingNumber);
  const connected = new Set(
    (await orgConnections(ctx.db, ctx.org.id))
      .filter((r) => r.active && (!carrierId || namesConnection(r, carrierId)))
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
  let unknown: CarrierFailureError | undefined;
  let failed: CarrierFailureError | undefined;
  for (const carrierName of candidates) {
    try {
      return await createTracker({ ctx, carrierName, trackingNumber, carrierId });
    } catch (err) {
      if (!(err instanceof CarrierFailureError)) throw err;
      if (err.code === "tracking_not_found") unknown ??= err;
      else failed ??= err;
    }
  }
  throw (failed ?? unknown)!;
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
