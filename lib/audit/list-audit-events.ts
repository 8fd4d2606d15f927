import "server-only";
import { and, desc, eq, gte, inArray, lt } from "drizzle-orm";
import type { DomainContext } from "@/lib/context";
import { auditEvents } from "@/lib/db/schema";
import type { AuditEvent, AuditEventListQuery } from "@/lib/schemas/audit-event";
import { formatTimestamp } from "@/lib/timestamp";

type AuditRow = typeof auditEvents.$inferSelect;

function presentAuditEvent(row: AuditRow): AuditEvent {
  return {
    id: row.id,
    created_at: formatTimestamp(row.createdAt),
    actor: { type: row.actorType, id: row.actorId, name: row.actorName },
    action: row.action as AuditEvent["action"],
    resource: { type: row.resourceType, id: row.resourceId },
    client: { address: row.clientAddress, user_agent: row.userAgent },
    request_id: row.requestId,
    summary: row.summary,
  };
}

/**
 * GET /v1/audit_events: the organization's audit log, newest first, filtered. Paged by a cursor (the last row's
 * place in the write order), not an offset: rows keep arriving at the head, and an offset would shift under a reader.
 */
export async function listAuditEvents({
  ctx,
  filters,
}: {
  ctx: DomainContext;
  filters: AuditEventListQuery;
}): Promise<{ results: AuditEvent[]; nextCursor: string | null }> {
  const where = and(
    eq(auditEvents.orgId, ctx.org.id),
    filters.cursor ? lt(auditEvents.seq, Number(filters.cursor)) : undefined,
    filters.actor_id ? eq(auditEvents.actorId, filters.actor_id) : undefined,
    filters.actor_type ? inArray(auditEvents.actorType, filters.actor_type) : undefined,
    filters.action ? inArray(auditEvents.action, filters.action) : undefined,
    filters.resource_id ? eq(auditEvents.resourceId, filters.resource_id) : undefined,
    filters.created_after ? gte(auditEvents.createdAt, filters.created_after) : undefined,
    filters.created_before ? lt(auditEvents.createdAt, filters.created_before) : undefined,
  );
  // One row more than the page tells whether another page follows, without counting the whole log.
  const rows = await ctx.db
    .select()
    .from(auditEvents)
    .where(where)
    .orderBy(desc(auditEvents.seq))
    .limit(filters.limit + 1);
  const page = rows.slice(0, filters.limit);
  const more = rows.length > filters.limit;
  return { results: page.map(presentAuditEvent), nextCursor: more ? String(page.at(-1)!.seq) : null };
}
