import "server-only";
import { and, eq } from "drizzle-orm";
import type { DomainContext } from "@/lib/context";
import { shipmentDocuments } from "@/lib/db/schema";
import type { LabelType } from "@/lib/carriers/types";
import { NotFoundError } from "@/lib/errors";
import { LABEL_CONTENT_TYPES } from "@/lib/labels/check";
import { printReady } from "@/lib/labels/print-ready";
import { findShipmentRow } from "./load-shipments";

export interface DocumentFileOut {
  contentType: string;
  filename: string;
  content: Uint8Array;
}

const EXTENSIONS: Record<LabelType, string> = { PDF: "pdf", ZPL: "zpl", PNG: "png" };

/** Every document a shipment has, in every format the carriers draw them. */
export const DOCUMENT_MEDIA_TYPES = Object.values(LABEL_CONTENT_TYPES);

/**
 * GET /v1/shipments/{id}/documents/{document_id}: one document's file, named after the tracking number and what it
 * is (`1Z…-commercial-invoice.pdf`). PDFs ask to print at actual size, as labels do (lib/labels/print-ready.ts).
 */
export async function getDocument({
  ctx,
  id,
  documentId,
}: {
  ctx: DomainContext;
  id: string;
  documentId: string;
}): Promise<DocumentFileOut> {
  const row = await findShipmentRow(ctx.db, ctx.org.id, id);
  const [doc] = await ctx.db
    .select()
    .from(shipmentDocuments)
    .where(
      and(
        eq(shipmentDocuments.orgId, ctx.org.id),
        eq(shipmentDocuments.shipmentId, id),
        eq(shipmentDocuments.id, documentId),
      ),
    );
  if (!doc) throw new NotFoundError(`Document ${documentId} of shipment ${id} does not exist.`);
  const format = doc.format as LabelType;
  const name = (row.trackingNumber ?? row.id).replace(/[^A-Za-z0-9_-]/g, "");
  // The position tells two papers of one kind apart (two certificates of origin).
  const suffix = doc.position > 0 ? `-${doc.position + 1}` : "";
  return {
    contentType: LABEL_CONTENT_TYPES[format],
    filename: `${name}-${doc.type.replace(/_/g, "-")}${suffix}.${EXTENSIONS[format]}`,
    content: format === "PDF" ? await printReady(doc.content) : doc.content,
  };
}
