import "server-only";
import { recordAudit } from "@/lib/audit/record";
import { withTransaction } from "@/lib/context";
import { endpointSummary } from "./audit-summary";
import { and, eq } from "drizzle-orm";
import type { DomainContext } from "@/lib/context";
import { webhookEndpoints } from "@/lib/db/schema";
import { NotFoundError } from "@/lib/errors";
import type { WebhookEndpoint } from "@/lib/schemas/webhook";
import { presentEndpoint } from "./present-endpoint";

/**
 * Removes the endpoint and answers it as it was. Its deliveries and their attempts go with it (foreign keys cascade):
 * nothing more is sent to it, and its log is gone. The events stay, for the organization's other endpoints.
 */
export async function deleteEndpoint({ ctx, id }: { ctx: DomainContext; id: string }): Promise<WebhookEndpoint> {
  const row = await withTransaction(ctx, async (tx) => {
    const [gone] = await tx.db
      .delete(webhookEndpoints)
      .where(and(eq(webhookEndpoints.orgId, ctx.org.id), eq(webhookEndpoints.id, id)))
      .returning();
    if (!gone) throw new NotFoundError(`Webhook endpoint ${id} does not exist.`);
    await recordAudit(tx, { action: "webhook_endpoint.deleted", resourceId: id, summary: endpointSummary(gone) });
    return gone;
  });
  return presentEndpoint(row);
}
