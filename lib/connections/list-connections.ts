import "server-only";
import { and, count, desc, eq } from "drizzle-orm";
import { carrierConnections } from "@/lib/db/schema";
import type { DomainContext } from "@/lib/context";
import type { ConnectionListQuery } from "@/lib/schemas/connection";
import { presentConnection } from "./present";

export async function listConnections({ ctx, filters }: { ctx: DomainContext; filters: ConnectionListQuery }) {
  const where = and(
    eq(carrierConnections.orgId, ctx.org.id),
    filters.carrier_name ? eq(carrierConnections.carrierName, filters.carrier_name) : undefined,
    filters.active === undefined ? undefined : eq(carrierConnections.active, filters.active),
  );
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(carrierConnections)
      .where(where)
      .orderBy(desc(carrierConnections.createdAt), desc(carrierConnections.id))
      .limit(filters.limit)
      .offset(filters.offset),
    ctx.db.select({ n: count() }).from(carrierConnections).where(where),
  ]);
  return { count: total?.n ?? 0, results: rows.map(presentConnection) };
}
