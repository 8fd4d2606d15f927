import "server-only";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { DocumentType, LabelType } from "@/lib/carriers/types";
import { addresses, labels, parcels, rates, shipmentDocuments, shipments } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/tx";
import { NotFoundError } from "@/lib/errors";
import type { DocumentFields } from "./present-document";
import type { ShipmentView } from "./present-shipment";
import type { AddressRow, ParcelRow, ShipmentRow } from "./rows";

/** A stored shipment with its parts, as loaded: what presentShipment turns into the Shipment JSON. */
export interface ShipmentParts extends ShipmentView {
  row: ShipmentRow;
  shipper: AddressRow;
  recipient: AddressRow;
  parcels: ParcelRow[];
}

/** Always scoped by organization: another organization's id is simply not found. */
export async function findShipmentRow(db: DbOrTx, orgId: string, id: string): Promise<ShipmentRow> {
  const [row] = await db
    .select()
    .from(shipments)
    .where(and(eq(shipments.orgId, orgId), eq(shipments.id, id)));
  if (!row) throw new NotFoundError(`Shipment ${id} does not exist.`);
  return row;
}

/** The documents of these shipments, without their bytes (their size is counted by the database), in order. */
export async function documentFacts(
  db: DbOrTx,
  orgId: string,
  shipmentIds: string[],
): Promise<(DocumentFields & { shipmentId: string })[]> {
  if (shipmentIds.length === 0) return [];
  const rows = await db
    .select({
      id: shipmentDocuments.id,
      shipmentId: shipmentDocuments.shipmentId,
      type: shipmentDocuments.type,
      format: shipmentDocuments.format,
      name: shipmentDocuments.name,
      size: sql<number>`octet_length(${shipmentDocuments.content})`.mapWith(Number),
      createdAt: shipmentDocuments.createdAt,
    })
    .from(shipmentDocuments)
    .where(and(eq(shipmentDocuments.orgId, orgId), inArray(shipmentDocuments.shipmentId, shipmentIds)))
    .orderBy(asc(shipmentDocuments.shipmentId), asc(shipmentDocuments.position));
  return rows.map((r) => ({ ...r, type: r.type as DocumentType, format: r.format as LabelType, content: null }));
}

/**
 * The parts of many shipments in five queries, whatever their number (lists, not N+1); parcels and rates in order.
 * `labels: false` skips the label files (then `label` is null): a list a person looks at never needs their bytes.
 */
export async function loadShipmentParts(
  db: DbOrTx,
  orgId: string,
  rows: ShipmentRow[],
  { labels: withLabels = true }: { labels?: boolean } = {},
): Promise<ShipmentParts[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const addressIds = rows.flatMap((r) => [r.shipperId, r.recipientId]);
  const [addressRows, parcelRows, rateRows, labelRows, documentRows] = await Promise.all([
    db
      .select()
      .from(addresses)
      .where(and(eq(addresses.orgId, orgId), inArray(addresses.id, addressIds))),
    db
      .select()
      .from(parcels)
      .where(and(eq(parcels.orgId, orgId), inArray(parcels.shipmentId, ids)))
      .orderBy(asc(parcels.position)),
    db
      .select()
      .from(rates)
      .where(and(eq(rates.orgId, orgId), inArray(rates.shipmentId, ids)))
      .orderBy(asc(rates.position)),
    withLabels
      ? db
          .select({ shipmentId: labels.shipmentId, content: labels.content })
          .from(labels)
          .where(and(eq(labels.orgId, orgId), inArray(labels.shipmentId, ids)))
      : [],
    documentFacts(db, orgId, ids),
  ]);
  const addressById = new Map(addressRows.map((a) => [a.id, a]));
  const labelById = new Map(labelRows.map((l) => [l.shipmentId, l]));
  return rows.map((row) => ({
    row,
    shipper: addressById.get(row.shipperId)!,
    recipient: addressById.get(row.recipientId)!,
    parcels: parcelRows.filter((p) => p.shipmentId === row.id),
    rates: rateRows.filter((r) => r.shipmentId === row.id),
    label: labelById.get(row.id) ?? null,
    documents: documentRows.filter((d) => d.shipmentId === row.id),
  }));
}

export async function loadShipment(db: DbOrTx, orgId: string, id: string): Promise<ShipmentParts> {
  const row = await findShipmentRow(db, orgId, id);
  const [parts] = await loadShipmentParts(db, orgId, [row]);
  return parts!;
}
