import "server-only";
import { and, eq, gte, type SQL } from "drizzle-orm";
import { events } from "@/lib/db/schema";
import type { Event } from "@/lib/schemas/event";
import { formatTimestamp } from "@/lib/timestamp";

export type EventRow = typeof events.$inferSelect;

/** Events are kept 30 days (docs/api.md, "Webhooks and events"). */
export const EVENT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * The organization's events that still exist at `now`: an event older than 30 days is gone for readers from that
 * moment, whether or not the sweep has deleted its row yet.
 */
export function readableEvents(orgId: string, now: Date): SQL {
  return and(eq(events.orgId, orgId), gte(events.createdAt, new Date(now.getTime() - EVENT_RETENTION_MS)))!;
}

/**
 * An event as the API presents it, `data` in the current API version as it was stored; the edge rewrites it for an
 * older version (the Event schema tells it which resource `data` is).
 */
export function presentEvent(row: EventRow): Event {
  return {
    id: row.id,
    type: row.type,
    created_at: formatTimestamp(row.createdAt),
    test_mode: row.testMode,
    data: row.data,
  } as Event;
}
