import "server-only";
import { and, asc, eq, getTableColumns, inArray, sql } from "drizzle-orm";
import type { DocumentType, LabelType } from "@/lib/carriers/types";
import { addresses, labels, parcels, rates, shipmentDocuments, shipments } from "@/lib/db/schema";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { jsonList, jsonRow, jsonRows } from "@/lib/db/json-rows";
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
 * The children of the shipment row a select is on, each as one JSON column of the same statement (json-rows.ts). Never
 * SQL NULL (drizzle hands a NULL past the column's decoder): no rows is an empty list.
 */
function partColumns(orgId: string, withLabels: boolean) {
  // Spelled out with its table: drizzle writes a one-table select's columns bare, and a bare `id` inside a
  // subquery would be the subquery's own.
  const outer = (column: AnyPgColumn) => sql`${shipments}.${sql.identifier(column.name)}`;
  return {
    addresses: sql`(select coalesce(json_agg(a), '[]') from ${addresses} a
      where a.org_id = ${orgId} and a.id in (${outer(shipments.shipperId)}, ${outer(shipments.recipientId)}))`.mapWith(
      jsonRows(addresses),
    ),
    parcels: sql`(select coalesce(json_agg(p order by p.position), '[]') from ${parcels} p
      where p.org_id = ${orgId} and p.shipment_id = ${outer(shipments.id)})`.mapWith(jsonRows(parcels)),
    rates: sql`(select coalesce(json_agg(r order by r.position), '[]') from ${rates} r
      where r.org_id = ${orgId} and r.shipment_id = ${outer(shipments.id)})`.mapWith(jsonRows(rates)),
    // Their facts, not their bytes, as documentFacts reads them.
    documents:
      sql`(select coalesce(json_agg(json_build_object('id', d.id, 'type', d.type, 'format', d.format, 'name', d.name,
        'size', octet_length(d.content), 'created_at', d.created_at) order by d.position), '[]')
      from ${shipmentDocuments} d where d.org_id = ${orgId} and d.shipment_id = ${outer(shipments.id)})`.mapWith(
        documentJson,
      ),
    label: withLabels
      ? sql<Uint8Array | null>`(select l.content from ${labels} l
          where l.org_id = ${orgId} and l.shipment_id = ${outer(shipments.id)})`.mapWith(labels.content)
      : sql<null>`null`,
  };
}

const documentRow = jsonRow(shipmentDocuments);
const documentJson = (value: unknown): DocumentFields[] =>
  jsonList(value).map((json) => {
    const { id, type, format, name, createdAt } = documentRow(json);
    // `size` is not a column: counted beside the row's own.
    return { id, type, format: format as LabelType, name, size: Number(json.size), createdAt, content: null };
  });

type Parts = { [K in keyof ReturnType<typeof partColumns>]: ReturnType<typeof partColumns>[K]["_"]["type"] };

function assemble(row: ShipmentRow, p: Parts): ShipmentParts {
  const byId = new Map(p.addresses.map((a) => [a.id, a]));
  return {
    row,
    shipper: byId.get(row.shipperId)!,
    recipient: byId.get(row.recipientId)!,
    parcels: p.parcels,
    rates: p.rates,
    label: p.label ? { content: p.label } : null,
    documents: p.documents,
  };
}

/**
 * Shipments with their parts (addresses, parcels and rates in order, document facts, the label file), in one
 * statement whatever their number: a page of a list, or one shipment. In no particular order; ids of another
 * organization, or of no shipment, are left out. `labels: false` skips the label files (then `label` is null): a list
 * a person looks at never needs their bytes.
 */
export async function loadShipments(
  db: DbOrTx,
  orgId: string,
  ids: string[],
  { labels: withLabels = true }: { labels?: boolean } = {},
): Promise<ShipmentParts[]> {
  if (ids.length === 0) return [];
  const found = await db
    .select({ row: getTableColumns(shipments), ...partColumns(orgId, withLabels) })
    .from(shipments)
    .where(and(eq(shipments.orgId, orgId), inArray(shipments.id, ids)));
  return found.map(({ row, ...parts }) => assemble(row, parts));
}

/** The parts of shipment rows the caller holds (written in its transaction, say), in their order. */
export async function loadShipmentParts(
  db: DbOrTx,
  orgId: string,
  rows: ShipmentRow[],
  { labels: withLabels = true }: { labels?: boolean } = {},
): Promise<ShipmentParts[]> {
  if (rows.length === 0) return [];
  const found = await db
    .select({ id: shipments.id, ...partColumns(orgId, withLabels) })
    .from(shipments)
    .where(
      and(
        eq(shipments.orgId, orgId),
        inArray(
          shipments.id,
          rows.map((r) => r.id),
        ),
      ),
    );
  const partsOf = new Map(found.map(({ id, ...parts }) => [id, parts]));
  return rows.map((row) => assemble(row, partsOf.get(row.id)!));
}

/** One shipment with its parts, in one statement; another organization's id is simply not found. */
export async function loadShipment(
  db: DbOrTx,
  orgId: string,
  id: string,
  options: { labels?: boolean } = {},
): Promise<ShipmentParts> {
  const [parts] = await loadShipments(db, orgId, [id], options);
  if (!parts) throw new NotFoundError(`Shipment ${id} does not exist.`);
  return parts;
}
