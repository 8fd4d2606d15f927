import "server-only";
import { and, desc, eq, isNotNull } from "drizzle-orm";
import type { DomainContext } from "@/lib/context";
import { trackers } from "@/lib/db/schema";

export interface ConnectionError {
  message: string;
  at: Date;
}

/**
 * The newest tracking failure of each connection, among trackers still being refreshed (a connection's only record
 * of its carrier's recent refusals: rating and buying answer their errors at once). One indexed lookup per
 * connection (trackers_connection_due), scoped to the organization.
 */
export async function lastTrackingErrors(
  ctx: DomainContext,
  connectionIds: string[],
): Promise<Record<string, ConnectionError>> {
  const found = await Promise.all(
    connectionIds.map(async (id) => {
      const [row] = await ctx.db
        .select({ lastError: trackers.lastError, at: trackers.updatedAt })
        .from(trackers)
        .where(
          and(
            eq(trackers.orgId, ctx.org.id),
            eq(trackers.carrierConnectionId, id),
            isNotNull(trackers.nextRefreshAt),
            isNotNull(trackers.lastError),
          ),
        )
        .orderBy(desc(trackers.updatedAt))
        .limit(1);
      const message = row?.lastError?.find((m) => m.level === "error")?.message ?? row?.lastError?.[0]?.message;
      return message && row ? ([id, { message, at: row.at }] as const) : null;
    }),
  );
  return Object.fromEntries(found.filter((x) => x !== null));
}
