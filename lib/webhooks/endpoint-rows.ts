import "server-only";
import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { decryptJson, encryptJson } from "@/lib/connections/crypto";
import { webhookEndpoints } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/tx";
import { NotFoundError } from "@/lib/errors";

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;

/** An endpoint of the organization, or not found (another organization's id is simply not found). */
export async function findEndpointRow(db: DbOrTx, orgId: string, id: string): Promise<WebhookEndpointRow> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.orgId, orgId), eq(webhookEndpoints.id, id)));
  if (!row) throw new NotFoundError(`Webhook endpoint ${id} does not exist.`);
  return row;
}

/** A new signing secret in the Standard Webhooks form: `whsec_` and 32 random bytes in base64. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** Secrets are stored encrypted (AES-256-GCM, the connections' key), bound to their endpoint's id. */
export function encryptSecret(endpointId: string, secret: string): string {
  return encryptJson(secret, `webhook:${endpointId}`);
}

/**
 * The secrets an attempt is signed with at `now`: the current one, and after a rotation the previous one until it
 * expires (a receiver that has not switched yet still verifies).
 */
export function signingSecrets(row: WebhookEndpointRow, now: Date): string[] {
  return signingSecretsOf(row)(now);
}

/** signingSecrets for a batch's attempts: each secret decrypted once, not once per attempt (issue 35). */
export function signingSecretsOf(row: WebhookEndpointRow): (now: Date) => string[] {
  const current = decryptJson<string>(row.secretEncrypted, `webhook:${row.id}`);
  const { previousSecretEncrypted: previous, previousSecretExpiresAt: until } = row;
  if (!previous || !until) return () => [current];
  const decrypted = decryptJson<string>(previous, `webhook:${row.id}`);
  return (now) => (until > now ? [current, decrypted] : [current]);
}
