import "server-only";
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
  const [row] = await ctx.db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.orgId, ctx.org.id), eq(webhookEndpoints.id, id)))
    .returning();
  if (!row) throw new NotFoundError(`Webhook endpoint ${id} does not exist.`);
  return presentEndpoint(row);
}
