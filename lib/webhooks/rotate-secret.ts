import "server-only";
import { recordAudit } from "@/lib/audit/record";
import { withTransaction } from "@/lib/context";
import { and, eq, sql } from "drizzle-orm";
import type { DomainContext } from "@/lib/context";
import { webhookEndpoints } from "@/lib/db/schema";
import { NotFoundError } from "@/lib/errors";
import type { WebhookEndpointWithSecret } from "@/lib/schemas/webhook";
import { encryptSecret, newSigningSecret } from "./endpoint-rows";
import { presentEndpoint } from "./present-endpoint";

/** How long the secret a rotation replaces still signs (docs/api.md, "Webhooks and events"). */
const PREVIOUS_SECRET_VALID_MS = 24 * 60 * 60 * 1000;

/**
 * A new signing secret, answered once. The one it replaces keeps signing beside it for 24 hours, so receivers can
 * switch without missing a delivery; a second rotation within them makes the then-current secret the previous one
 * (the oldest is dropped: at most two secrets sign). One UPDATE moves the current secret to previous, so two
 * concurrent rotations cannot lose one: the later keeps the earlier's secret as its previous.
 */
export async function rotateSecret({
  ctx,
  id,
  now = new Date(),
}: {
  ctx: DomainContext;
  id: string;
  now?: Date;
}): Promise<WebhookEndpointWithSecret> {
  const secret = newSigningSecret();
  const row = await withTransaction(ctx, async (tx) => {
    const [rotated] = await tx.db
      .update(webhookEndpoints)
      .set({
        // Both envelopes are bound to the endpoint's id, so the current one moves over as it is, never decrypted.
        previousSecretEncrypted: sql`${webhookEndpoints.secretEncrypted}`,
        previousSecretExpiresAt: new Date(now.getTime() + PREVIOUS_SECRET_VALID_MS),
        secretEncrypted: encryptSecret(id, secret),
        updatedAt: now,
      })
      .where(and(eq(webhookEndpoints.orgId, ctx.org.id), eq(webhookEndpoints.id, id)))
      .returning();
    if (!rotated) throw new NotFoundError(`Webhook endpoint ${id} does not exist.`);
    // Never the secret: only that it changed, and until when the old one still signs.
    await recordAudit(tx, {
      action: "webhook_endpoint.secret_rotated",
      resourceId: id,
      summary: { previous_secret_expires_at: rotated.previousSecretExpiresAt?.toISOString() ?? null },
    });
    return rotated;
  });
  return { ...presentEndpoint(row), secret };
}
