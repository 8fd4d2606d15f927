import "server-only";
import { changedFields, recordAudit } from "@/lib/audit/record";
import { withTransaction } from "@/lib/context";
import { endpointSummary } from "./audit-summary";
import { and, eq } from "drizzle-orm";
import type { DomainContext } from "@/lib/context";
import { webhookEndpoints } from "@/lib/db/schema";
import { NotFoundError } from "@/lib/errors";
import type { WebhookEndpoint, WebhookUpdate } from "@/lib/schemas/webhook";
import { findEndpointRow } from "./endpoint-rows";
import { assertEndpointUrlAllowed } from "./endpoint-url";
import { presentEndpoint } from "./present-endpoint";

type Changes = Partial<typeof webhookEndpoints.$inferInsert>;

/**
 * PATCH semantics: absent keys stay; `enabled_events` is replaced whole. Disabling records `user` as the reason
 * (an endpoint the sender already disabled keeps its reason). Enabling clears the reason and `failing_since`, and so
 * does a new URL: the five days of failures that disable an endpoint count from scratch for a receiver it never
 * tried. The mode cannot change: events of the other mode would start arriving at a receiver that expects these.
 */
export async function updateEndpoint({
  ctx,
  id,
  input,
  now = new Date(),
}: {
  ctx: DomainContext;
  id: string;
  input: WebhookUpdate;
  now?: Date;
}): Promise<WebhookEndpoint> {
  const row = await findEndpointRow(ctx.db, ctx.org.id, id);
  const changes: Changes = { description: input.description, enabledEvents: input.enabled_events, updatedAt: now };
  if (input.url !== undefined) {
    assertEndpointUrlAllowed(input.url, row.testMode);
    changes.url = input.url;
    if (input.url !== row.url) changes.failingSince = null;
  }
  if (input.enabled === true) Object.assign(changes, { enabled: true, disabledReason: null, failingSince: null });
  if (input.enabled === false && row.enabled) Object.assign(changes, { enabled: false, disabledReason: "user" });
  const updated = await withTransaction(ctx, async (tx) => {
    const [written] = await tx.db
      .update(webhookEndpoints)
      .set(changes)
      .where(and(eq(webhookEndpoints.orgId, ctx.org.id), eq(webhookEndpoints.id, id)))
      .returning();
    if (written) {
      await recordAudit(tx, {
        action: "webhook_endpoint.updated",
        resourceId: id,
        summary: { fields: changedFields(input), ...endpointSummary(written) },
      });
    }
    return written;
  });
  if (!updated) throw new NotFoundError(`Webhook endpoint ${id} does not exist.`); // deleted meanwhile
  return presentEndpoint(updated);
}
