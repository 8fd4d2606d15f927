import "server-only";
import { and, eq, isNotNull, sql } from "drizzle-orm";
import { withTransaction, type DomainContext, type SystemContext } from "@/lib/context";
import { newId } from "@/lib/db/ids";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/tx";
import { env } from "@/lib/env";
import type { WebhookAttempt } from "@/lib/schemas/webhook-delivery";
import { nextAttemptAt } from "./backoff";
import { findEndpointRow, signingSecrets, type WebhookEndpointRow } from "./endpoint-rows";
import { endpointVersion, eventPayload, pingPayload, type EventForPayload } from "./payload";
import { presentAttempt } from "./present-attempt";
import { safePost, type PostResult, type Resolver } from "./safe-fetch";
import { signedHeaders } from "./sign";

/**
 * One attempt of one delivery (docs/webhooks.md, "Delivery"): sign, send, log the attempt, then settle. A 2xx is
 * success and the endpoint is answering again; 410 Gone disables the endpoint at once; anything else is retried on
 * the backoff schedule until it runs out (then the delivery is `failed`), and an endpoint that has answered nothing
 * but failures for 5 days is disabled. A disabled endpoint's pending deliveries stay pending: nothing is sent to it
 * while it is disabled, and they go out in order if it is enabled again (its events expire after 30 days meanwhile).
 */

/** What tests and benches inject; production passes nothing. */
export interface SenderOptions {
  resolve?: Resolver;
  /** Jitter source for the backoff. */
  random?: () => number;
  timeoutMs?: number;
}

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** A claimed delivery with what sending it needs. */
export interface ClaimedDelivery {
  delivery: DeliveryRow;
  event: EventForPayload;
  endpoint: WebhookEndpointRow;
}

export type AttemptOutcome = "succeeded" | "retrying" | "failed" | "disabled";

const FAILING_DISABLE_MS = 5 * 24 * 60 * 60 * 1000;

async function post(endpoint: WebhookEndpointRow, messageId: string, body: string, now: Date, options: SenderOptions) {
  const e = env();
  return safePost({
    url: endpoint.url,
    body,
    headers: signedHeaders(messageId, now, body, signingSecrets(endpoint, now)),
    allowHttp: endpoint.testMode || e.WEBHOOKS_ALLOW_HTTP,
    allowPrivate: e.WEBHOOKS_ALLOW_PRIVATE_URLS,
    resolve: options.resolve,
    timeoutMs: options.timeoutMs,
  });
}

function attemptRow(
  endpoint: WebhookEndpointRow,
  event: { id: string; type: string },
  deliveryId: number | null,
  attemptedAt: Date,
  result: PostResult,
): typeof webhookAttempts.$inferInsert {
  return {
    orgId: endpoint.orgId,
    endpointId: endpoint.id,
    deliveryId,
    eventId: event.id,
    eventType: event.type,
    attemptedAt,
    statusCode: result.statusCode,
    durationMs: result.durationMs,
    responseExcerpt: result.excerpt,
    errorClass: result.errorClass,
    succeeded: result.errorClass === null,
  };
}

/**
 * The endpoint after a failed attempt at `at`: failing since its first failure, disabled on 410 or after 5 days of
 * failures. A disabled endpoint starts with a clean `failing_since` when someone enables it again.
 */
async function recordEndpointFailure(db: DbOrTx, endpoint: WebhookEndpointRow, at: Date, gone: boolean) {
  const [row] = await db
    .update(webhookEndpoints)
    .set({ failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${at.toISOString()}::timestamptz)` })
    .where(eq(webhookEndpoints.id, endpoint.id))
    .returning({ failingSince: webhookEndpoints.failingSince });
  const failingTooLong = row?.failingSince && at.getTime() - row.failingSince.getTime() >= FAILING_DISABLE_MS;
  if (!gone && !failingTooLong) return false;
  const disabled = await db
    .update(webhookEndpoints)
    .set({ enabled: false, disabledReason: gone ? "gone" : "failing", failingSince: null, updatedAt: at })
    .where(and(eq(webhookEndpoints.id, endpoint.id), eq(webhookEndpoints.enabled, true)))
    .returning({ id: webhookEndpoints.id });
  return disabled.length > 0;
}

/** Sends a claimed delivery once and settles it. The claim's lease is what makes the settle ours. */
export async function attemptDelivery({
  ctx,
  claim,
  now,
  options = {},
}: {
  ctx: SystemContext;
  claim: ClaimedDelivery;
  now: Date;
  options?: SenderOptions;
}): Promise<AttemptOutcome> {
  const { delivery, event, endpoint } = claim;
  const body = eventPayload(event, endpointVersion(endpoint.apiVersion));
  const result = await post(endpoint, event.id, body, now, options);
  const succeeded = result.errorClass === null;
  const gone = result.statusCode === 410;
  const attempts = delivery.attempts + 1;
  const next = succeeded ? null : nextAttemptAt(attempts, now, options.random);

  return withTransaction(ctx, async ({ db: tx }) => {
    await tx.insert(webhookAttempts).values(attemptRow(endpoint, event, delivery.id, now, result));
    await tx
      .update(webhookDeliveries)
      .set({
        attempts,
        status: succeeded ? "succeeded" : next ? "pending" : "failed",
        nextAttemptAt: next,
        leaseUntil: null,
        updatedAt: now,
      })
      // Only while the lease is ours: a sender that overran it (it never should) does not undo a newer attempt.
      .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.leaseUntil, delivery.leaseUntil!)));
    if (succeeded) {
      await tx
        .update(webhookEndpoints)
        .set({ failingSince: null })
        .where(and(eq(webhookEndpoints.id, endpoint.id), isNotNull(webhookEndpoints.failingSince)));
      return "succeeded";
    }
    const disabled = await recordEndpointFailure(tx, endpoint, now, gone);
    if (disabled) {
      ctx.log.warn({
        msg: "webhook endpoint disabled",
        endpoint_id: endpoint.id,
        org_id: endpoint.orgId,
        reason: gone ? "gone" : "failing",
      });
      return "disabled";
    }
    return next ? "retrying" : "failed";
  });
}

/**
 * `POST /v1/webhooks/{id}/test`: a `ping` sent now, logged like any attempt and answered. A ping is a probe: it
 * changes nothing about the endpoint (a 410 does not disable it, a failure does not count toward the 5 days), and it
 * is sent to a disabled endpoint too, so an endpoint can be checked before it is enabled again.
 */
export async function sendTestPing({
  ctx,
  id,
  options = {},
}: {
  ctx: DomainContext;
  id: string;
  options?: SenderOptions;
}): Promise<WebhookAttempt> {
  const endpoint = await findEndpointRow(ctx.db, ctx.org.id, id);
  const now = new Date();
  const ping = { id: newId("event"), type: "ping" };
  const result = await post(endpoint, ping.id, pingPayload(ping.id, endpoint, now), now, options);
  const [row] = await ctx.db
    .insert(webhookAttempts)
    .values(attemptRow(endpoint, ping, null, now, result))
    .returning();
  return presentAttempt(row!);
}
