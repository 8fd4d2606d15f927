import "server-only";
import { and, asc, eq, gte, isNull, lt } from "drizzle-orm";
import { carrierLedger } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/tx";
import type { CarrierLedger, FoundShipment, LabelType } from "@/lib/carriers/types";
import { log } from "@/lib/log";

/**
 * The storage the service lends an in-process carrier for its books (CarrierLedger in lib/carriers/types.ts), in
 * the service's database: the one store that outlives a crashed process and that every instance shares, which is
 * what makes "no sale under this reference" an answer a purchase can trust. Each statement commits on its own (the
 * carrier's write is not part of any transaction of ours), before the carrier answers.
 */
export function carrierLedgerFor(db: DbOrTx, connection: { orgId: string; id: string }): CarrierLedger {
  return guarded(books(db, connection));
}

/**
 * A failing statement reaches the adapter as a plain error naming the database's code only: a driver's error
 * carries the statement's parameters (label bytes, references), and the carrier layer logs what an adapter throws.
 */
class LedgerUnavailableError extends Error {
  constructor(readonly code: string | null) {
    super(`the carrier ledger is unavailable (${code ?? "no code"})`);
    this.name = "LedgerUnavailableError";
  }
}

function guarded(ledger: CarrierLedger): CarrierLedger {
  const wrap =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    (...args: A) =>
      fn(...args).catch((err: unknown) => {
        throw new LedgerUnavailableError((err as { code?: string }).code ?? null);
      });
  return {
    recordSale: wrap(ledger.recordSale),
    findSale: wrap(ledger.findSale),
    recordVoid: wrap(ledger.recordVoid),
    liveSales: wrap(ledger.liveSales),
  };
}

function books(db: DbOrTx, connection: { orgId: string; id: string }): CarrierLedger {
  const account = and(eq(carrierLedger.orgId, connection.orgId), eq(carrierLedger.connectionId, connection.id));
  const findSale: CarrierLedger["findSale"] = async (trackingNumber) => {
    const [row] = await db
      .select({ soldAt: carrierLedger.soldAt, voidedAt: carrierLedger.voidedAt })
      .from(carrierLedger)
      .where(and(account, eq(carrierLedger.trackingNumber, trackingNumber)));
    return row ? { sold_at: row.soldAt, voided_at: row.voidedAt } : null;
  };
  return {
    findSale,

    async recordSale(sale) {
      sweepOldSales(db);
      const written = await db
        .insert(carrierLedger)
        .values({
          orgId: connection.orgId,
          connectionId: connection.id,
          trackingNumber: sale.tracking_number,
          shipmentIdentifier: sale.shipment_identifier,
          reference: sale.reference,
          shipmentKey: sale.shipment_key,
          labelType: sale.label.type,
          label: sale.label.bytes,
          documents: sale.documents.map((d) => ({
            type: d.type,
            format: d.format,
            name: d.name,
            content: Buffer.from(d.bytes).toString("base64"),
          })),
          charge: sale.charge,
          meta: sale.meta,
          soldAt: sale.sold_at,
        })
        .onConflictDoNothing()
        .returning({ n: carrierLedger.trackingNumber });
      return written.length > 0;
    },

    async recordVoid(trackingNumber, at) {
      // Conditional, so of two voids racing the first one's time stays: it is when the label stopped being valid.
      const [voided] = await db
        .update(carrierLedger)
        .set({ voidedAt: at })
        .where(and(account, eq(carrierLedger.trackingNumber, trackingNumber), isNull(carrierLedger.voidedAt)))
        .returning({ voidedAt: carrierLedger.voidedAt });
      if (voided) return voided.voidedAt;
      return (await findSale(trackingNumber))?.voided_at ?? null;
    },

    async liveSales(reference, since) {
      const rows = await db
        .select()
        .from(carrierLedger)
        .where(
          and(
            account,
            eq(carrierLedger.reference, reference),
            gte(carrierLedger.soldAt, since),
            isNull(carrierLedger.voidedAt),
          ),
        )
        .orderBy(asc(carrierLedger.soldAt));
      return rows.map((r): FoundShipment => ({
        tracking_number: r.trackingNumber,
        shipment_identifier: r.shipmentIdentifier,
        label: { type: r.labelType as LabelType, bytes: r.label },
        documents: r.documents.map(({ content, ...d }) => ({
          ...d,
          bytes: new Uint8Array(Buffer.from(content, "base64")),
        })),
        charge: r.charge,
        meta: r.meta,
        reference: r.reference,
        shipment_key: r.shipmentKey,
        sold_at: r.soldAt,
      }));
    },
  };
}

/**
 * The books keep 30 days: long past the point where a sandbox label can be voided or a lost purchase answer is
 * settled. One sweep per instance every few minutes, in the background of a sale.
 */
const RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
const SWEEP_EVERY_MS = 10 * 60 * 1000;
let lastSweep = 0;

function sweepOldSales(db: DbOrTx) {
  const now = Date.now();
  if (now - lastSweep < SWEEP_EVERY_MS) return;
  lastSweep = now;
  db.delete(carrierLedger)
    .where(lt(carrierLedger.soldAt, new Date(now - RETENTION_MS)))
    .catch((err: unknown) => {
      lastSweep = 0;
      log().warn({ msg: "carrier ledger sweep failed", code: (err as { code?: string }).code ?? null });
    });
}
