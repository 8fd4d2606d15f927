import "server-only";
import { and, count, desc, eq } from "drizzle-orm";
import type { DomainContext } from "@/lib/context";
import { webhookAttempts } from "@/lib/db/schema";
import type { WebhookAttempt, WebhookAttemptListQuery } from "@/lib/schemas/webhook-delivery";
import { findEndpointRow } from "./endpoint-rows";
import { presentAttempt } from "./present-attempt";

/** `GET /v1/webhooks/{id}/deliveries`: the endpoint's delivery log, newest attempt first (pings included). */
export async function listEndpointAttempts({
  ctx,
  id,
  filters,
}: {
  ctx: DomainContext;
  id: string;
  filters: WebhookAttemptListQuery;
}): Promise<{ count: number; results: WebhookAttempt[] }> {
  const endpoint = await findEndpointRow(ctx.db, ctx.org.id, id);
  const where = and(
    eq(webhookAttempts.orgId, ctx.org.id),
    eq(webhookAttempts.endpointId, endpoint.id),
    filters.event_id ? eq(webhookAttempts.eventId, filters.event_id) : undefined,
    filters.succeeded === undefined ? undefined : eq(webhookAttempts.succeeded, filters.succeeded),
  );
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(webhookAttempts)
      .where(where)
      .orderBy(desc(webhookAttempts.attemptedAt), desc(webhookAttempts.id))
      .limit(filters.limit)
      .offset(filters.offset),
    ctx.db.select({ n: count() }).from(webhookAttempts).where(where),
  ]);
  return { count: total?.n ?? 0, results: rows.map(presentAttempt) };
}
