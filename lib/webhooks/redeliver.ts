import "server-only";
import { recordAudit } from "@/lib/audit/record";
import { and, eq, isNull, lte, or, sql } from "drizzle-orm";
import { withTransaction, type DomainContext } from "@/lib/context";
import { events, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import { NotFoundError, StateConflictError, ValidationError } from "@/lib/errors";
import type { Redelivery } from "@/lib/schemas/webhook-delivery";
import { formatTimestamp } from "@/lib/timestamp";
import { findEndpointRow, type WebhookEndpointRow } from "./endpoint-rows";
import { readableEvents } from "./event-rows";

/**
 * `POST /v1/events/{id}/redeliver` (docs/webhooks.md, "Redelivery"): sends a stored event again, whatever became of
 * its earlier deliveries (succeeded, or failed once its retries ran out). To one endpoint of the organization, or to
 * every enabled endpoint of the event's mode that subscribes to its type now. Each target gets a pending delivery
 * due now; it goes out behind the endpoint's older pending deliveries (order per endpoint holds) with the event's
 * own id as `webhook-id`, so a receiver that already has it can tell. A delivery of the event still pending for an
 * endpoint is made due now rather than doubled.
 */
export async function redeliverEvent({
  ctx,
  eventId,
  endpointId,
  now = new Date(),
}: {
  ctx: DomainContext;
  eventId: string;
  endpointId: string | null;
  now?: Date;
}): Promise<Redelivery> {
  return withTransaction(ctx, async (txCtx) => {
    const tx = txCtx.db;
    // An event past its 30 days is gone for redelivery too, whether or not the sweep has deleted it yet.
    const [event] = await tx
      .select()
      .from(events)
      .where(and(readableEvents(ctx.org.id, now), eq(events.id, eventId)));
    if (!event) throw new NotFoundError(`Event ${eventId} does not exist.`);

    let targets: WebhookEndpointRow[];
    if (endpointId) {
      const endpoint = await findEndpointRow(tx, ctx.org.id, endpointId);
      if (endpoint.testMode !== event.testMode) {
        const mode = (testMode: boolean) => (testMode ? "test" : "live");
        throw new ValidationError(
          `is a ${mode(endpoint.testMode)} endpoint; the event is a ${mode(event.testMode)} event`,
          "endpoint_id",
        );
      }
      if (!endpoint.enabled) {
        throw new StateConflictError(`Webhook endpoint ${endpointId} is disabled; enable it to send it events.`);
      }
      targets = [endpoint];
    } else {
      targets = await tx
        .select()
        .from(webhookEndpoints)
        .where(
          and(
            eq(webhookEndpoints.orgId, ctx.org.id),
            eq(webhookEndpoints.enabled, true),
            eq(webhookEndpoints.testMode, event.testMode),
            sql`(${webhookEndpoints.enabledEvents} ? ${event.type} or ${webhookEndpoints.enabledEvents} ? '*')`,
          ),
        )
        .orderBy(webhookEndpoints.id);
    }

    const deliveries: Redelivery["deliveries"] = [];
    for (const endpoint of targets) {
      // A pending delivery that no sender holds right now is simply brought forward.
      const [pending] = await tx
        .update(webhookDeliveries)
        .set({
          nextAttemptAt: sql`least(${webhookDeliveries.nextAttemptAt}, ${now.toISOString()}::timestamptz)`,
          updatedAt: now,
        })
        .where(
          and(
            eq(webhookDeliveries.endpointId, endpoint.id),
            eq(webhookDeliveries.eventId, event.id),
            eq(webhookDeliveries.status, "pending"),
            or(isNull(webhookDeliveries.leaseUntil), lte(webhookDeliveries.leaseUntil, now)),
          ),
        )
        .returning({ nextAttemptAt: webhookDeliveries.nextAttemptAt });
      if (!pending) {
        await tx.insert(webhookDeliveries).values({
          orgId: ctx.org.id,
          endpointId: endpoint.id,
          eventId: event.id,
          nextAttemptAt: now,
          createdAt: now,
          updatedAt: now,
        });
      }
      deliveries.push({
        endpoint_id: endpoint.id,
        status: "pending",
        next_attempt_at: formatTimestamp(pending?.nextAttemptAt ?? now),
      });
    }
    ctx.log.info({ msg: "webhook event redelivered", event_id: event.id, endpoints: deliveries.length });
    await recordAudit(txCtx, {
      action: "event.redelivered",
      resourceId: event.id,
      summary: { event_type: event.type, endpoint_ids: deliveries.map((d) => d.endpoint_id) },
    });
    return { event_id: event.id, deliveries };
  });
}
