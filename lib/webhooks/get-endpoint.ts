import "server-only";
import type { DomainContext } from "@/lib/context";
import type { WebhookEndpoint } from "@/lib/schemas/webhook";
import { findEndpointRow } from "./endpoint-rows";
import { presentEndpoint } from "./present-endpoint";

export async function getEndpoint({ ctx, id }: { ctx: DomainContext; id: string }): Promise<WebhookEndpoint> {
  return presentEndpoint(await findEndpointRow(ctx.db, ctx.org.id, id));
}
