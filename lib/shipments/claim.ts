import "server-only";
import { and, eq, inArray, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import { shipments } from "@/lib/db/schema";
import type { DbOrTx, Tx } from "@/lib/db/tx";
import { deadlineFor } from "@/lib/carriers/invoke";
import { StateConflictError } from "@/lib/errors";
import type { ShipmentStatus } from "@/lib/schemas/shipment";
import { formatTimestamp } from "@/lib/timestamp";
import { CANCEL_ATTEMPT, PURCHASE_ATTEMPT } from "./outcome-unknown";
import type { ShipmentRow } from "./rows";
import { changeShipmentStatus, type StatusChange } from "./status";
import type { PartsInHand } from "./shipment-events";

/**
 * A purchase or cancellation reaches the carrier only after this shipment row says so: the claim is one
 * conditional UPDATE, committed before the carrier is called, so of any number of concurrent calls (on any
 * number of servers) exactly one gets it. The claim carries its own deadline, so a process that dies holding it
 * does not lock the shipment forever.
 */
export type PendingOperation = "purchase" | "cancel";

export interface Claim {
  orgId: string;
  shipmentId: string;
  operation: PendingOperation;
  until: Date;
  /** The statuses the operation starts from; the write that ends it still requires one of them. */
  from: readonly ShipmentStatus[];
}

/** Long enough for the carrier call (its deadline) and for recording the outcome, with its retries. */
export const claimLeaseMs = (connection: { config: Record<string, unknown> }) =>
  deadlineFor(connection) + 2 * 60 * 1000;

/**
 * A state conflict while another purchase or cancellation holds the shipment (an expired claim no longer does). It
 * says until when: a claim whose process died holds the shipment that long, and then the retry settles it.
 */
export function assertNoLiveClaim(row: Pick<ShipmentRow, "pendingOperation" | "pendingUntil">, now = new Date()): void {
  if (row.pendingOperation !== null && row.pendingUntil !== null && row.pendingUntil > now) {
    throw new StateConflictError(
      `A ${row.pendingOperation === "cancel" ? "cancellation" : "purchase"} of this shipment is in progress ` +
        `(held until ${formatTimestamp(row.pendingUntil)}). Retry after that if it does not finish.`,
    );
  }
}

/** Columns a claim writes with itself or with its release (the attempt in `meta`, the latest messages). */
type ClaimColumns = Pick<Partial<typeof shipments.$inferInsert>, "meta" | "messages">;

/** The attempt in `meta` as it was read: `IS NOT DISTINCT FROM`, so "none" matches only none. */
const attemptAsRead = (row: Pick<ShipmentRow, "meta">, key: string) =>
  sql`(${shipments.meta} -> ${key}::text) is not distinct from ${row.meta[key] === undefined ? null : JSON.stringify(row.meta[key])}::jsonb`;

/**
 * The claim, with what it writes besides (`set`: the attempt it is about to make). Besides status and no live claim,
 * the shipment's attempts must still be the ones this caller read: a purchase that read a clean shipment must not
 * claim one whose earlier purchase has meanwhile lost its answer (it would buy a second label without asking), and a
 * settlement must not act on an attempt that someone else already settled.
 */
export async function claimShipment(
  db: DbOrTx,
  row: ShipmentRow,
  operation: PendingOperation,
  from: readonly ShipmentStatus[],
  leaseMs: number,
  set: ClaimColumns = {},
  now = new Date(),
): Promise<Claim> {
  const until = new Date(now.getTime() + leaseMs);
  const claimed = await db
    .update(shipments)
    .set({ ...set, pendingOperation: operation, pendingUntil: until })
    .where(
      and(
        eq(shipments.orgId, row.orgId),
        eq(shipments.id, row.id),
        inArray(shipments.status, [...from]),
        or(isNull(shipments.pendingOperation), lt(shipments.pendingUntil, now)),
        attemptAsRead(row, PURCHASE_ATTEMPT),
        attemptAsRead(row, CANCEL_ATTEMPT),
      ),
    )
    .returning({ id: shipments.id });
  if (claimed.length === 0) throw conflictFor(operation);
  return { orgId: row.orgId, shipmentId: row.id, operation, until, from };
}

/**
 * A held claim with a new deadline and `set` written with it: a settled purchase about to buy records its new
 * attempt, with the time a carrier call needs, before it calls. A state conflict when the claim was lost meanwhile.
 */
export async function renewClaim(db: DbOrTx, claim: Claim, until: Date, set: ClaimColumns): Promise<Claim> {
  const renewed = await db
    .update(shipments)
    .set({ ...set, pendingUntil: until })
    .where(heldBy(claim))
    .returning({ id: shipments.id });
  if (renewed.length === 0) throw conflictFor(claim.operation);
  return { ...claim, until };
}

function conflictFor(operation: PendingOperation) {
  return new StateConflictError(
    `The shipment changed while this ${operation === "purchase" ? "purchase" : "cancellation"} started: another purchase or cancellation is in progress or has finished. Fetch the shipment and retry if needed.`,
  );
}

/**
 * The write that ends a claim by moving the shipment to `to` with the operation's columns, inside the caller's
 * transaction and through the one status write, only while the claim holds. Null when it was lost meanwhile.
 * `parts`: the shipment's parts after the change, when the caller has them (StatusChange.parts).
 */
export async function completeClaim(
  tx: Tx,
  claim: Claim,
  to: ShipmentStatus,
  set: StatusChange["set"],
  now: Date,
  parts?: PartsInHand,
): Promise<ShipmentRow | null> {
  const { rows } = await changeShipmentStatus(
    tx,
    [
      {
        orgId: claim.orgId,
        shipmentId: claim.shipmentId,
        to,
        allowed: heldBy(claim),
        set: { ...set, pendingOperation: null, pendingUntil: null },
        parts,
      },
    ],
    now,
  );
  return rows[0] ?? null;
}

/**
 * Whether the claim is still ours and the shipment still where the operation started, as a WHERE: for the write that
 * ends the claim and the one that gives it back without changing the status (releaseClaim).
 */
const heldBy = (claim: Claim): SQL =>
  and(
    eq(shipments.orgId, claim.orgId),
    eq(shipments.id, claim.shipmentId),
    eq(shipments.pendingOperation, claim.operation),
    eq(shipments.pendingUntil, claim.until),
    inArray(shipments.status, [...claim.from]),
  )!;

/**
 * Gives the shipment back with its status unchanged, writing `set` with it: the attempt removed when the carrier
 * refused (nothing happened there), or kept when its answer was lost, with the carrier's messages. `restore` puts
 * back an expired claim that was the shipment's only memory of a lost purchase (from before attempts were kept in
 * `meta`). A claim already lost is left alone.
 */
export async function releaseClaim(
  db: DbOrTx,
  claim: Claim,
  set: ClaimColumns = {},
  restore: Pick<ShipmentRow, "pendingOperation" | "pendingUntil"> = { pendingOperation: null, pendingUntil: null },
): Promise<void> {
  await db
    .update(shipments)
    .set({ ...set, pendingOperation: restore.pendingOperation, pendingUntil: restore.pendingUntil })
    .where(heldBy(claim));
}

/** A claim that was not written back means someone else holds the shipment now. */
export class ClaimLostError extends Error {
  constructor() {
    super("the shipment's claim expired and was taken over");
    this.name = "ClaimLostError";
  }
}
