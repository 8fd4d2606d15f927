import "server-only";
import { and, eq } from "drizzle-orm";
import { recordAudit } from "@/lib/audit/record";
import { withTransaction, type DomainContext } from "@/lib/context";
import { labels } from "@/lib/db/schema";
import type { LabelType } from "@/lib/carriers/types";
import { StateConflictError, ValidationError } from "@/lib/errors";
import { LABEL_CONTENT_TYPES } from "@/lib/labels/check";
import { printReady } from "@/lib/labels/print-ready";
import { layOnSheet, SHEET_SIZES, SheetLayoutError } from "@/lib/labels/sheet";
import type { LabelLayout } from "@/lib/schemas/shipment";
import { findShipmentRow } from "./load-shipments";
import { labelWithheld } from "./outcome-unknown";

export interface LabelFileOut {
  type: LabelType;
  contentType: string;
  filename: string;
  content: Uint8Array;
}

const EXTENSIONS: Record<LabelType, string> = { PDF: "pdf", ZPL: "zpl", PNG: "png" };

/** What GET /v1/shipments/{id}/label can answer. */
export const LABEL_MEDIA_TYPES = Object.values(LABEL_CONTENT_TYPES);

/**
 * GET /v1/shipments/{id}/label: the file itself. `format` may only confirm the stored type (a label is bought
 * in one format; converting PDF to ZPL would not be the carrier's label). A voided label is not handed out for
 * printing, nor one whose void may have happened (a cancellation that lost its answer).
 *
 * Every PDF handed out asks to print at actual size (lib/labels/print-ready.ts), ours and carriers' alike. `layout`
 * letter or a4 answers a PDF sheet with the label laid on its top half at 100% (lib/labels/sheet.ts).
 */
export async function getLabel({
  ctx,
  id,
  format,
  layout = "label",
}: {
  ctx: DomainContext;
  id: string;
  format?: LabelType;
  layout?: LabelLayout;
}): Promise<LabelFileOut> {
  const row = await findShipmentRow(ctx.db, ctx.org.id, id);
  const [label] = await ctx.db
    .select()
    .from(labels)
    .where(and(eq(labels.orgId, ctx.org.id), eq(labels.shipmentId, id)));
  if (!label) throw new StateConflictError("The shipment has no label yet: purchase it first.");
  const withheld = labelWithheld(row);
  if (withheld) {
    const advice = row.status === "cancelled" ? "it must not be used" : "cancel the shipment again to settle it";
    throw new StateConflictError(`${withheld.charAt(0).toUpperCase()}${withheld.slice(1)}; ${advice}.`);
  }
  const type = label.type as LabelType;
  if (format && format !== type) throw new ValidationError(`this shipment's label is ${type}`, "format");
  // A label is what a parcel ships on: who took a copy, and when, is worth knowing. Recorded before the file is
  // made: an answer that fails after this line still handed nothing out, but a rare extra row beats a missing one.
  await withTransaction(ctx, (tx) =>
    recordAudit(tx, { action: "shipment.label_downloaded", resourceId: row.id, summary: { label_type: type, layout } }),
  );
  const name = (row.trackingNumber ?? row.id).replace(/[^A-Za-z0-9_-]/g, "");
  if (layout === "label") {
    return {
      type,
      contentType: LABEL_CONTENT_TYPES[type],
      filename: `${name}.${EXTENSIONS[type]}`,
      content: type === "PDF" ? await printReady(label.content) : label.content,
    };
  }
  try {
    const title = `Label ${row.trackingNumber ?? row.id} on ${SHEET_SIZES[layout].name} paper`;
    const content = await layOnSheet({ type, content: label.content }, layout, title);
    return { type: "PDF", contentType: LABEL_CONTENT_TYPES.PDF, filename: `${name}-${layout}.pdf`, content };
  } catch (err) {
    if (err instanceof SheetLayoutError) throw new ValidationError(err.message, "layout");
    throw err;
  }
}
