import "server-only";
import { and, asc, eq, lte, sql } from "drizzle-orm";
import { forOrganization, type DomainContext, type SystemContext } from "@/lib/context";
import { getAdapter } from "@/lib/carriers/registry";
import type { CarrierMessage, Refund } from "@/lib/carriers/types";
import { orgConnection } from "@/lib/connections/select-connections";
import { invokeConnection } from "@/lib/connections/invoke-connection";
import { shipments, type StoredRefund } from "@/lib/db/schema";
import { formatTimestamp } from "@/lib/timestamp";
import type { ShipmentRow } from "./rows";

/**
 * Refunds a void started (docs/api.md, "Refunds"). Some carriers void a label by a refund request they settle later
 * (USPS once the label is manifested, Canada Post once it is transmitted): the shipment is cancelled at once (the
 * label must not be used), and its `refund` stays `pending` until the carrier's answer to `checkRefund` settles it.
 * The carrier is asked again by the background check (every REFUND_RECHECK_MS, due shipments in `refund_check_after`
 * order) and whenever the cancellation is repeated; a refund never changes the shipment's status.
 */

/** How long a pending refund waits between two checks: carriers settle them in days, not minutes. */
const REFUND_RECHECK_MS = 6 * 60 * 60 * 1000;
/** After a check that failed (the carrier down, the connection gone): soon enough to notice a recovery. */
const REFUND_RETRY_MS = 60 * 60 * 1000;
/** Shipments one background round asks about: a round must end well within a minute's schedule. */
const REFUNDS_PER_ROUND = 20;

type RefundColumns = Pick<ShipmentRow, "refund" | "refundCheckAfter">;

/**
 * What a void's answer writes: nothing to follow for a label voided before it was billed, nor a check to plan when
 * the carrier cannot say where a refund stands (`checkable`: its adapter has checkRefund).
 */
export function refundStarted(refund: Refund | null, now: Date, checkable: boolean): RefundColumns {
  if (!refund) return { refund: null, refundCheckAfter: null };
  const at = formatTimestamp(now);
  const settled = refund.status !== "pending";
  return {
    refund: {
      status: refund.status,
      reference: refund.reference,
      requested_at: at,
      checked_at: null,
      settled_at: settled ? at : null,
    },
    refundCheckAfter: settled || !checkable ? null : new Date(now.getTime() + REFUND_RECHECK_MS),
  };
}

/** What a check's answer writes; the carrier's reference, once it gives one, is kept. */
function refundChecked(stored: StoredRefund, answer: Refund, now: Date): RefundColumns {
  const at = formatTimestamp(now);
  const settled = answer.status !== "pending";
  return {
    refund: {
      ...stored,
      status: answer.status,
      reference: answer.reference ?? stored.reference,
      checked_at: at,
      settled_at: settled ? at : null,
    },
    refundCheckAfter: settled ? null : new Date(now.getTime() + REFUND_RECHECK_MS),
  };
}

/**
 * Asks the carrier where the shipment's pending refund stands and records the answer. A failure is reported in the
 * messages (as warnings: the cancellation itself stands) and the check is tried again later; a shipment whose refund
 * is not pending, or whose carrier cannot say, is left as it is.
 */
export async function checkRefund(
  ctx: DomainContext,
  row: ShipmentRow,
  now = new Date(),
): Promise<{
  row: ShipmentRow;
  messages: CarrierMessage[];
}> {
  const stored = row.refund;
  // Only a cancellation records a refund, so a pending one belongs to a cancelled shipment.
  if (stored?.status !== "pending") return { row, messages: [] };
  const connection = row.carrierConnectionId ? await orgConnection({ ctx, id: row.carrierConnectionId }) : null;
  const adapter = connection ? getAdapter(connection.carrierName) : null;
  if (!connection || !adapter?.checkRefund) {
    // Nothing can settle it from here: stop asking, and say where to look.
    const messages: CarrierMessage[] = [
      {
        carrier_name: row.carrierName ?? "",
        carrier_id: row.carrierId ?? "",
        code: "not_supported",
        message: `The refund of label ${row.trackingNumber} is pending; ${connection ? "the carrier's API cannot say where it stands" : "the connection that bought the label no longer exists"}: check the carrier account.`,
        level: "warning",
        details: {},
      },
    ];
    return { row: await write(ctx, row, { refund: stored, refundCheckAfter: null }), messages };
  }
  const outcome = await invokeConnection(connection, "refund_status", undefined, (a, actx) =>
    a.checkRefund!(actx, {
      tracking_number: row.trackingNumber!,
      shipment_identifier: row.shipmentIdentifier,
      refund: { status: stored.status, reference: stored.reference },
      requested_at: new Date(stored.requested_at.replace(" ", "T")),
    }),
  );
  if (!outcome.ok) {
    const messages = outcome.messages.map((m) => ({ ...m, level: "warning" as const }));
    return {
      row: await write(ctx, row, { refund: stored, refundCheckAfter: new Date(now.getTime() + REFUND_RETRY_MS) }),
      messages,
    };
  }
  return { row: await write(ctx, row, refundChecked(stored, outcome.data, now)), messages: outcome.messages };
}

/**
 * Writes the check's outcome, only over the pending refund it read: two checks at once (a repeated cancellation
 * and the background round) both ask, and the first answer written stands.
 */
async function write(ctx: DomainContext, row: ShipmentRow, set: RefundColumns): Promise<ShipmentRow> {
  const [written] = await ctx.db
    .update(shipments)
    .set(set)
    .where(
      and(eq(shipments.orgId, ctx.org.id), eq(shipments.id, row.id), sql`${shipments.refund} ->> 'status' = 'pending'`),
    )
    .returning();
  return written ?? row;
}

/** One background round: the shipments whose pending refund is due a check, oldest due first, each checked. */
export async function checkDueRefunds({ ctx, now }: { ctx: SystemContext; now: Date }) {
  const due = await ctx.db
    .select()
    .from(shipments)
    .where(lte(shipments.refundCheckAfter, now))
    .orderBy(asc(shipments.refundCheckAfter))
    .limit(REFUNDS_PER_ROUND);
  let settled = 0;
  let failed = 0;
  for (const row of due) {
    try {
      const { row: after } = await checkRefund(forOrganization(ctx, row.orgId), row, now);
      if (after.refund?.status !== "pending") settled++;
    } catch (err) {
      // One shipment that cannot be written (the database went away mid-round) must not hold the queue: the oldest
      // due comes first, and it would come first again. It waits an hour; the others go on.
      failed++;
      ctx.log.error({ msg: "refund check failed", shipment_id: row.id, err });
      await ctx.db
        .update(shipments)
        .set({ refundCheckAfter: new Date(now.getTime() + REFUND_RETRY_MS) })
        .where(and(eq(shipments.orgId, row.orgId), eq(shipments.id, row.id)))
        .catch(() => undefined);
    }
  }
  return { checked: due.length, settled, failed };
}
