import "server-only";
import { and, asc, eq, inArray, isNull, lt, lte, notExists, or } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { SystemContext } from "@/lib/context";
import { events, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/tx";
import type { ClaimedDelivery } from "./deliver";
import { DELIVERY_TIMEOUT_MS } from "./safe-fetch";

/**
 * What is due (send-due.ts): the endpoints whose oldest pending delivery may go now, and the claim of that
 * delivery.
 */

// Longer than any attempt (the 10 s deadline, signing, the writes), so a live sender never loses its claim.
const LEASE_MS = DELIVERY_TIMEOUT_MS * 6;
// Endpoints one round looks at.
const PLAN_LIMIT = 1000;

/** Endpoints whose head delivery is due and not held by another sender: the round's work, one worker each. */
export async function planWebhookRound({ ctx, now }: { ctx: SystemContext; now: Date }): Promise<string[]> {
  const head = alias(webhookDeliveries, "head");
  const candidates = ctx.db
    .selectDistinct({ endpointId: webhookDeliveries.endpointId })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.status, "pending"), lte(webhookDeliveries.nextAttemptAt, now)))
    .as("candidates");
  const h = ctx.db
    .select({ nextAttemptAt: head.nextAttemptAt, leaseUntil: head.leaseUntil })
    .from(head)
    .where(and(eq(head.endpointId, candidates.endpointId), eq(head.status, "pending")))
    .orderBy(asc(head.id))
    .limit(1)
    .as("h");
  const rows = await ctx.db
    .select({ endpointId: candidates.endpointId })
    .from(candidates)
    .innerJoin(
      webhookEndpoints,
      and(eq(webhookEndpoints.id, candidates.endpointId), eq(webhookEndpoints.enabled, true)),
    )
    .crossJoinLateral(h)
    .where(and(lte(h.nextAttemptAt, now), or(isNull(h.leaseUntil), lte(h.leaseUntil, now))))
    .limit(PLAN_LIMIT);
  return rows.map((r) => r.endpointId);
}

/**
 * Claims the endpoint's head delivery if it is due and free: one statement that locks it (skipping a row another
 * sender is claiming) and sets its lease. The NOT EXISTS keeps it to the head: a locked head is skipped, never
 * passed over for the delivery behind it.
 */
export async function claimHead(db: DbOrTx, endpointId: string, now: Date): Promise<ClaimedDelivery | null> {
  const older = alias(webhookDeliveries, "older");
  const head = db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpointId),
        eq(webhookDeliveries.status, "pending"),
        lte(webhookDeliveries.nextAttemptAt, now),
        or(isNull(webhookDeliveries.leaseUntil), lte(webhookDeliveries.leaseUntil, now)),
        notExists(
          db
            .select({ id: older.id })
            .from(older)
            .where(
              and(
                eq(older.endpointId, webhookDeliveries.endpointId),
                eq(older.status, "pending"),
                lt(older.id, webhookDeliveries.id),
              ),
            ),
        ),
      ),
    )
    .orderBy(asc(webhookDeliveries.id))
    .limit(1)
    .for("update", { skipLocked: true });
  const [delivery] = await db
    .update(webhookDeliveries)
    .set({ leaseUntil: new Date(now.getTime() + LEASE_MS), updatedAt: now })
    .where(inArray(webhookDeliveries.id, head))
    .returning();
  if (!delivery) return null;
  const [found] = await db
    .select({ event: events, endpoint: webhookEndpoints })
    .from(events)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, delivery.endpointId))
    .where(eq(events.id, delivery.eventId));
  if (!found || !found.endpoint.enabled) {
    // Disabled (or gone) since the plan: hand the delivery back untouched; it waits for the endpoint.
    await db.update(webhookDeliveries).set({ leaseUntil: null }).where(eq(webhookDeliveries.id, delivery.id));
    return null;
  }
  return { delivery, event: found.event, endpoint: found.endpoint };
}
