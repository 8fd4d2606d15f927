import "server-only";
import { recordAudit } from "@/lib/audit/record";
import { and, eq, inArray, sql } from "drizzle-orm";
import { withTransaction, type DomainContext, type SystemContext } from "@/lib/context";
import { newId } from "@/lib/db/ids";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import { env } from "@/lib/env";
import type { WebhookAttempt } from "@/lib/schemas/webhook-delivery";
import { nextAttemptAt } from "./backoff";
import { findEndpointRow, signingSecrets, type WebhookEndpointRow } from "./endpoint-rows";
import type { EventRow } from "./event-rows";
import { endpointVersion, eventPayload, pingPayload } from "./payload";
import { presentAttempt } from "./present-attempt";
import { safePost, type PostResult, type Resolver } from "./safe-fetch";
import { signedHeaders } from "./sign";

/**
 * Attempts and what they settle (docs/webhooks.md, "Delivery"). A 2xx is success and the endpoint is answering
 * again; 410 Gone disables the endpoint at once; anything else is retried on the backoff schedule until it runs out
 * (then the delivery is `failed`), and an endpoint that has answered nothing but failures for 5 days is disabled. A
 * disabled endpoint's pending deliveries stay pending: nothing is sent to it while it is disabled, and they go out
 * in order if it is enabled again (its events expire after 30 days meanwhile).
 */

/** What tests and benches inject; production passes nothing. */
export interface SenderOptions {
  resolve?: Resolver;
  /** Jitter source for the backoff. */
  random?: () => number;
  timeoutMs?: number;
}

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** Deliveries of one endpoint claimed together (in order, under one lease), with what sending them needs. */
export interface ClaimedBatch {
  endpoint: WebhookEndpointRow;
  leaseUntil: Date;
  deliveries: { delivery: DeliveryRow; event: EventRow }[];
}

/** One attempt of a batch, sent, and what it means for its delivery. */
export interface SentAttempt {
  delivery: DeliveryRow;
  event: EventRow;
  attemptedAt: Date;
  result: PostResult;
  /** `pending` with the time of the retry, or `failed` once the schedule is over. */
  verdict: { status: "succeeded" } | { status: "pending"; nextAttemptAt: Date } | { status: "failed" };
}

const FAILING_DISABLE_MS = 5 * 24 * 60 * 60 * 1000;

/**
 * Settles do not wait for their commit to reach the disk: were the database to crash in that instant and lose it,
 * the deliveries would be sent again, which at-least-once delivery allows (receivers de-duplicate by `webhook-id`).
 * Waiting would cost a disk flush per webhook.
 */
export const ASYNC_COMMIT = sql`set local synchronous_commit = off`;

async function post(
  endpoint: WebhookEndpointRow,
  messageId: string,
  body: string,
  now: Date,
  options: SenderOptions,
  secrets: string[],
) {
  const e = env();
  return safePost({
    url: endpoint.url,
    body,
    headers: signedHeaders(messageId, now, body, secrets),
    allowHttp: endpoint.testMode || e.WEBHOOKS_ALLOW_HTTP,
    allowPrivate: e.WEBHOOKS_ALLOW_PRIVATE_URLS,
    resolve: options.resolve,
    timeoutMs: options.timeoutMs,
  });
}

/**
 * Signs and sends one delivery at `now` (the `webhook-timestamp`); writes nothing. A batch passes the endpoint's
 * secrets at `now` (signingSecretsOf), decrypted once for all its attempts.
 */
export async function sendDelivery(
  endpoint: WebhookEndpointRow,
  delivery: DeliveryRow,
  event: EventRow,
  now: Date,
  options: SenderOptions = {},
  secrets: string[] = signingSecrets(endpoint, now),
): Promise<SentAttempt> {
  const result = await post(
    endpoint,
    event.id,
    eventPayload(event, endpointVersion(endpoint.apiVersion)),
    now,
    options,
    secrets,
  );
  let verdict: SentAttempt["verdict"] = { status: "succeeded" };
  if (result.errorClass !== null) {
    const next = nextAttemptAt(delivery.attempts + 1, now, options.random);
    verdict = next ? { status: "pending", nextAttemptAt: next } : { status: "failed" };
  }
  return { delivery, event, attemptedAt: now, result, verdict };
}

/** Why an endpoint is disabled after this failed attempt, if it is: 410, or 5 days of nothing but failures. */
export function disableReason(attempt: SentAttempt, failingSince: Date): "gone" | "failing" | null {
  if (attempt.result.statusCode === 410) return "gone";
  return attempt.attemptedAt.getTime() - failingSince.getTime() >= FAILING_DISABLE_MS ? "failing" : null;
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
 * Writes what a batch did, in one transaction: every attempt in the log, each sent delivery's new state, the ones
 * not sent handed back (due as they were), and the endpoint's `failing_since`, or its disabling. Only deliveries
 * still under this batch's lease are changed: a sender that overran its lease (it never should) undoes nothing.
 */
export async function settleBatch(
  ctx: SystemContext,
  batch: ClaimedBatch,
  sent: SentAttempt[],
  unsent: DeliveryRow[],
  endpointState: { failingSince: Date | null; disabled: "gone" | "failing" | null },
): Promise<void> {
  const { endpoint, leaseUntil } = batch;
  const ours = (ids: number[]) => and(inArray(webhookDeliveries.id, ids), eq(webhookDeliveries.leaseUntil, leaseUntil));
  await withTransaction(ctx, async (txCtx) => {
    const tx = txCtx.db;
    await tx.execute(ASYNC_COMMIT);
    if (sent.length > 0) {
      // One statement for the whole batch, whatever each attempt's outcome: its log entry, and its delivery's new
      // state. A statement per failure (and drizzle's per-value parameters for the log) cost more than the attempts
      // themselves on a burst (issue 35).
      const rows = sent.map((s, ord) => ({
        ...attemptRow(endpoint, s.event, s.delivery.id, s.attemptedAt, s.result),
        ord,
        status: s.verdict.status,
        nextAttemptAt: s.verdict.status === "pending" ? s.verdict.nextAttemptAt : null,
      }));
      await tx.execute(sql`
        with s as (
          select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as s(
            "orgId" text, "endpointId" text, "deliveryId" bigint, "eventId" text, "eventType" text,
            "attemptedAt" timestamptz, "statusCode" int, "durationMs" int, "responseExcerpt" text, "errorClass" text,
            succeeded boolean, ord int, status text, "nextAttemptAt" timestamptz)
        ), logged as (
          insert into ${webhookAttempts} (org_id, endpoint_id, delivery_id, event_id, event_type, attempted_at,
            status_code, duration_ms, response_excerpt, error_class, succeeded)
          select "orgId", "endpointId", "deliveryId", "eventId", "eventType", "attemptedAt", "statusCode",
            "durationMs", "responseExcerpt", "errorClass", succeeded
          from s order by ord
        )
        update ${webhookDeliveries} d
        set status = s.status, attempts = d.attempts + 1, next_attempt_at = s."nextAttemptAt", lease_until = null,
          updated_at = s."attemptedAt"
        from s
        where d.id = s."deliveryId" and d.lease_until = ${leaseUntil.toISOString()}::timestamptz`);
    }
    if (unsent.length > 0) {
      await tx
        .update(webhookDeliveries)
        .set({ leaseUntil: null })
        .where(ours(unsent.map((d) => d.id)));
    }
    const last = sent.at(-1)?.attemptedAt;
    if (endpointState.disabled && last) {
      // A disabled endpoint starts with a clean failing_since if someone enables it again.
      const changed = await tx
        .update(webhookEndpoints)
        .set({ enabled: false, disabledReason: endpointState.disabled, failingSince: null, updatedAt: last })
        .where(and(eq(webhookEndpoints.id, endpoint.id), eq(webhookEndpoints.enabled, true)))
        .returning({ id: webhookEndpoints.id });
      if (changed.length > 0) {
        ctx.log.warn({
          msg: "webhook endpoint disabled",
          endpoint_id: endpoint.id,
          org_id: endpoint.orgId,
          reason: endpointState.disabled,
        });
        // The sender's own change: the organization sees who disabled its endpoint (the job) and why.
        await recordAudit(
          { ...txCtx, org: { id: endpoint.orgId } },
          { action: "webhook_endpoint.disabled", resourceId: endpoint.id, summary: { reason: endpointState.disabled } },
          last,
        );
      }
    } else if (endpointState.failingSince?.getTime() !== endpoint.failingSince?.getTime()) {
      await tx
        .update(webhookEndpoints)
        .set({ failingSince: endpointState.failingSince })
        .where(eq(webhookEndpoints.id, endpoint.id));
    }
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
  const result = await post(
    endpoint,
    ping.id,
    pingPayload(ping.id, endpoint, now),
    now,
    options,
    signingSecrets(endpoint, now),
  );
  const [row] = await ctx.db
    .insert(webhookAttempts)
    .values(attemptRow(endpoint, ping, null, now, result))
    .returning();
  return presentAttempt(row!);
}
