import "server-only";
import { recordAudit } from "@/lib/audit/record";
import { endpointSummary } from "./audit-summary";
import { count, eq } from "drizzle-orm";
import { withTransaction, type DomainContext } from "@/lib/context";
import { newId } from "@/lib/db/ids";
import { organizations, webhookEndpoints } from "@/lib/db/schema";
import { StateConflictError } from "@/lib/errors";
import type { ApiVersion } from "@/lib/schemas/api-key";
import type { WebhookCreate, WebhookEndpointWithSecret } from "@/lib/schemas/webhook";
import { encryptSecret, newSigningSecret } from "./endpoint-rows";
import { assertEndpointUrlAllowed } from "./endpoint-url";
import { presentEndpoint } from "./present-endpoint";

/** docs/api.md, "Webhooks and events": each endpoint costs a delivery per event, so an organization has a few. */
const MAX_ENDPOINTS_PER_ORG = 20;

/**
 * A new endpoint with a new signing secret, answered with the secret: the only time it is shown (it is stored
 * encrypted, bound to the endpoint's id). `apiVersion` is the request's when the input names none: events reach the
 * endpoint in the version its creator reads the API in.
 */
export async function createEndpoint({
  ctx,
  input,
  apiVersion,
}: {
  ctx: DomainContext;
  input: WebhookCreate;
  apiVersion: ApiVersion;
}): Promise<WebhookEndpointWithSecret> {
  assertEndpointUrlAllowed(input.url, input.test_mode);
  const id = newId("webhook");
  const secret = newSigningSecret();
  const row = await withTransaction(ctx, async (txCtx) => {
    const tx = txCtx.db;
    // The organization's row is locked while its endpoints are counted, so concurrent creations cannot pass the cap.
    await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, ctx.org.id)).for("update");
    const [existing] = await tx
      .select({ n: count() })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.orgId, ctx.org.id));
    if ((existing?.n ?? 0) >= MAX_ENDPOINTS_PER_ORG) {
      throw new StateConflictError(
        `An organization has at most ${MAX_ENDPOINTS_PER_ORG} webhook endpoints; delete one before adding another.`,
      );
    }
    const [inserted] = await tx
      .insert(webhookEndpoints)
      .values({
        id,
        orgId: ctx.org.id,
        url: input.url,
        description: input.description,
        enabledEvents: input.enabled_events,
        enabled: input.enabled,
        disabledReason: input.enabled ? null : "user",
        testMode: input.test_mode,
        apiVersion: input.api_version ?? apiVersion,
        secretEncrypted: encryptSecret(id, secret),
      })
      .returning();
    await recordAudit(txCtx, {
      action: "webhook_endpoint.created",
      resourceId: id,
      summary: endpointSummary(inserted!),
    });
    return inserted!;
  });
  return { ...presentEndpoint(row), secret };
}
