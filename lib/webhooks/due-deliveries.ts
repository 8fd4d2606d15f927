import "server-only";
import { and, asc, eq, gt, inArray, isNull, lte, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { withTransaction, type SystemContext } from "@/lib/context";
import { events, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import { ASYNC_COMMIT, type ClaimedBatch } from "./deliver";
import { DELIVERY_TIMEOUT_MS } from "./safe-fetch";

/**
 * What is due (send-due.ts): the endpoints whose oldest pending delivery may go now, and the claim of that
 * delivery.
 */

// A batch's lease. A sender starts no attempt later than LAST_START_BEFORE_LEASE_END_MS before it ends, and an
// attempt lasts at most the 10 s deadline: a live sender never loses its claim.
const LEASE_MS = DELIVERY_TIMEOUT_MS * 6;
export const LAST_START_BEFORE_LEASE_END_MS = DELIVERY_TIMEOUT_MS * 2;
// Endpoints one round looks at.
const PLAN_LIMIT = 1000;

/**
 * Endpoints whose head delivery is due and not held by another sender: the round's work, one worker each. Each
 * enabled endpoint's head is one step of the pending index, so the plan costs the same however many deliveries a
 * burst left pending (issue 35: a scan of the due deliveries took 40 ms at 20 000 of them, and ran at every nudge).
 */
export async function planWebhookRound({ ctx, now }: { ctx: SystemContext; now: Date }): Promise<string[]> {
  const head = alias(webhookDeliveries, "head");
  const h = ctx.db
    .select({ nextAttemptAt: head.nextAttemptAt, leaseUntil: head.leaseUntil })
    .from(head)
    .where(and(eq(head.endpointId, webhookEndpoints.id), eq(head.status, "pending")))
    .orderBy(asc(head.id))
    .limit(1)
    .as("h");
  const rows = await ctx.db
    .select({ endpointId: webhookEndpoints.id })
    .from(webhookEndpoints)
    .crossJoinLateral(h)
    .where(
      and(
        eq(webhookEndpoints.enabled, true),
        lte(h.nextAttemptAt, now),
        or(isNull(h.leaseUntil), lte(h.leaseUntil, now)),
      ),
    )
    .limit(PLAN_LIMIT);
  return rows.map((r) => r.endpointId);
}

/**
 * Claims the endpoint's head delivery if it is due and free, and the due deliveries right behind it (up to `limit`,
 * stopping at the first that is not due), under one lease. The head is locked with SKIP LOCKED: a head another
 * sender is claiming is skipped, never passed over for the delivery behind it (only the oldest pending delivery is a
 * candidate). Whoever holds the head holds the endpoint: every other delivery of it has an older pending one, so nobody
 * else can claim them, and the rest of the batch needs no lock of its own.
 */
export async function claimBatch(
  ctx: SystemContext,
  endpointId: string,
  now: Date,
  limit: number,
): Promise<ClaimedBatch | null> {
  const leaseUntil = new Date(now.getTime() + LEASE_MS);
  const claimed = await withTransaction(ctx, async ({ db: tx }) => {
    await tx.execute(ASYNC_COMMIT);
    // The endpoint's oldest pending delivery, found in one step of the pending index (a NOT EXISTS over the older
    // ones read every pending delivery of the endpoint: 25 ms at 10 000 of them).
    const oldest = tx
      .select({ id: sql<number>`min(${webhookDeliveries.id})` })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, "pending")));
    const head = tx
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.id, sql`(${oldest})`),
          eq(webhookDeliveries.status, "pending"),
          lte(webhookDeliveries.nextAttemptAt, now),
          or(isNull(webhookDeliveries.leaseUntil), lte(webhookDeliveries.leaseUntil, now)),
        ),
      )
      .for("update", { skipLocked: true });
    const [first] = await tx
      .update(webhookDeliveries)
      .set({ leaseUntil, updatedAt: now })
      .where(inArray(webhookDeliveries.id, head))
      .returning();
    if (!first || limit <= 1) return first ? [first] : [];
    // The run behind the head, up to the first pending delivery that is not due yet: the next `limit - 1` pending
    // deliveries, kept while every one up to them is due. Reads `limit - 1` index entries, however long the queue.
    const next = tx
      .select({ id: webhookDeliveries.id, nextAttemptAt: webhookDeliveries.nextAttemptAt })
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.endpointId, endpointId),
          eq(webhookDeliveries.status, "pending"),
          gt(webhookDeliveries.id, first.id),
        ),
      )
      .orderBy(asc(webhookDeliveries.id))
      .limit(limit - 1)
      .as("next");
    const run = tx
      .select({
        id: next.id,
        due: sql<boolean>`bool_and(${next.nextAttemptAt} <= ${now.toISOString()}::timestamptz) over (order by ${next.id})`.as(
          "due",
        ),
      })
      .from(next)
      .as("run");
    const behind = tx
      .select({ id: run.id })
      .from(run)
      .where(sql`${run.due}`);
    const rest = await tx
      .update(webhookDeliveries)
      .set({ leaseUntil, updatedAt: now })
      .where(inArray(webhookDeliveries.id, behind))
      .returning();
    return [first, ...rest.sort((a, b) => a.id - b.id)];
  });
  if (claimed.length === 0) return null;

  // Side by side, on two connections: one round trip's wait instead of two in a row.
  const [[endpoint], found] = await Promise.all([
    ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId)),
    ctx.db
      .select()
      .from(events)
      .where(
        inArray(
          events.id,
          claimed.map((d) => d.eventId),
        ),
      ),
  ]);
  const byId = new Map(found.map((e) => [e.id, e]));
  if (!endpoint?.enabled) {
    // Disabled since the plan: hand the deliveries back untouched; they wait for the endpoint.
    await ctx.db
      .update(webhookDeliveries)
      .set({ leaseUntil: null })
      .where(
        inArray(
          webhookDeliveries.id,
          claimed.map((d) => d.id),
        ),
      );
    return null;
  }
  // An event is deleted with its deliveries (retention), so each claimed delivery has its event.
  return {
    endpoint,
    leaseUntil,
    deliveries: claimed.flatMap((delivery) => {
      const event = byId.get(delivery.eventId);
      return event ? [{ delivery, event }] : [];
    }),
  };
}

/**
 * Whether the endpoint is still as its batch was claimed for: there, enabled, at the same address. Asked while a batch
 * is sent (send-due.ts, ENDPOINT_RECHECK_MS), so an owner who disables, re-points or deletes an endpoint stops what
 * the batch would still send there: up to a hundred deliveries, for up to the lease.
 */
export async function endpointAsClaimed(
  ctx: SystemContext,
  endpoint: Pick<ClaimedBatch["endpoint"], "id" | "url">,
): Promise<"same" | "changed" | "gone"> {
  const [now] = await ctx.db
    .select({ enabled: webhookEndpoints.enabled, url: webhookEndpoints.url })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.id, endpoint.id));
  if (!now) return "gone";
  return now.enabled && now.url === endpoint.url ? "same" : "changed";
}
