import "server-only";
import { and, count, desc, eq, gte, inArray, lt } from "drizzle-orm";
import type { DomainContext } from "@/lib/context";
import { events } from "@/lib/db/schema";
import type { EventListQuery } from "@/lib/schemas/event";
import { presentEvent, readableEvents } from "./event-rows";

/** The organization's events of the last 30 days, newest first (in the order they were written), filtered. */
export async function listEvents({
  ctx,
  filters,
  now = new Date(),
}: {
  ctx: DomainContext;
  filters: EventListQuery;
  now?: Date;
}) {
  const where = and(
    readableEvents(ctx.org.id, now),
    filters.type ? inArray(events.type, filters.type) : undefined,
    filters.resource_id ? eq(events.resourceId, filters.resource_id) : undefined,
    filters.test_mode === undefined ? undefined : eq(events.testMode, filters.test_mode),
    filters.created_after ? gte(events.createdAt, filters.created_after) : undefined,
    filters.created_before ? lt(events.createdAt, filters.created_before) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    ctx.db.select().from(events).where(where).orderBy(desc(events.seq)).limit(filters.limit).offset(filters.offset),
    ctx.db.select({ n: count() }).from(events).where(where),
  ]);
  return { count: total?.n ?? 0, results: rows.map(presentEvent) };
}
