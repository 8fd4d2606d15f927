import { eq, inArray } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { newId } from "@/lib/db/ids";
import { carrierConnections, trackers } from "@/lib/db/schema";
import { makeTrackingNumber } from "@/lib/carriers/sandbox/tracking-number";

/** Sandbox numbers bought `hoursAgo` in the past (distinct serials), with the scenario digit given. */
export function sandboxNumbers(count: number, hoursAgo: number, scenario = 0): string[] {
  const base = Date.now() - hoursAgo * 3_600_000;
  return Array.from({ length: count }, (_, i) =>
    makeTrackingNumber({ purchasedAt: new Date(base - Math.floor(i / 1000) * 1000), scenario, serial: i % 1000 }),
  );
}

/** Stored trackers due now on the connection, as the purchase or create flow would leave them. */
export async function seedDueTrackers(
  orgId: string,
  connectionId: string,
  numbers: string[],
  extra: Partial<typeof trackers.$inferInsert> = {},
) {
  const db = await getDb();
  const [conn] = await db.select().from(carrierConnections).where(eq(carrierConnections.id, connectionId));
  const rows = numbers.map((n) => ({
    id: newId("tracker"),
    orgId,
    carrierName: conn!.carrierName,
    carrierId: conn!.carrierId,
    carrierConnectionId: connectionId,
    trackingNumber: n,
    status: "pending" as const,
    testMode: true,
    nextRefreshAt: new Date(Date.now() - 1000),
    ...extra,
  }));
  await db.insert(trackers).values(rows);
  return rows.map((r) => r.id);
}

export async function trackerRows(ids: string[]) {
  const db = await getDb();
  return db.select().from(trackers).where(inArray(trackers.id, ids));
}
