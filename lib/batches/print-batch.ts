import "server-only";
import { and, asc, eq, inArray } from "drizzle-orm";
import { recordAudit } from "@/lib/audit/record";
import { withTransaction, type DomainContext } from "@/lib/context";
import { addresses, batchRows, labels, shipments } from "@/lib/db/schema";
import { StateConflictError, ValidationError } from "@/lib/errors";
import { isPdf, isPng } from "@/lib/labels/check";
import { pdfText } from "@/lib/labels/fonts";
import { pdfLib } from "@/lib/labels/pdf-lib";
import { printAtActualSize } from "@/lib/labels/print-ready";
import { twoPerSheet } from "@/lib/labels/sheet";
import type { BatchPrintQuery } from "@/lib/schemas/batch";
import { labelWithheld } from "@/lib/shipments/outcome-unknown";
import { findBatch } from "./manage-batch";

/** Labels per file: a part of a print run (docs/api.md, "Batches"). */
const LABELS_PER_PART = 100;

export interface PrintFile {
  contentType: string;
  filename: string;
  content: Uint8Array;
  /** The part's rows whose label is not in the file, each with why (a ZPL label in a PDF run, and the reverse). */
  notIncluded: { line: number; reason: string }[];
  parts: number;
}

/**
 * The bought rows of a batch in CSV order, with their labels, for part `part` (100 labels each). A row keeps its place
 * in its part once its label is voided (the parts stay the same files), but the label is withheld, as
 * GET /v1/shipments/{id}/label withholds it: a batch's file must not print a label that must not ship.
 */
async function partRows(ctx: DomainContext, batchId: string, part: number) {
  const bought = await ctx.db
    .select({ line: batchRows.line, shipmentId: batchRows.shipmentId })
    .from(batchRows)
    .where(and(eq(batchRows.batchId, batchId), eq(batchRows.state, "purchased")))
    .orderBy(asc(batchRows.line));
  if (bought.length === 0) throw new StateConflictError("No row of this batch has a label yet.");
  const parts = Math.ceil(bought.length / LABELS_PER_PART);
  if (part > parts) throw new ValidationError(`must be 1 to ${parts}: the batch has ${bought.length} labels`, "part");
  const slice = bought.slice((part - 1) * LABELS_PER_PART, part * LABELS_PER_PART);
  const files = await ctx.db
    .select({
      shipmentId: shipments.id,
      status: shipments.status,
      meta: shipments.meta,
      type: labels.type,
      content: labels.content,
    })
    .from(shipments)
    .leftJoin(labels, and(eq(labels.orgId, ctx.org.id), eq(labels.shipmentId, shipments.id)))
    .where(
      and(
        eq(shipments.orgId, ctx.org.id),
        inArray(
          shipments.id,
          slice.map((r) => r.shipmentId),
        ),
      ),
    );
  const byShipment = new Map(files.map((f) => [f.shipmentId, f]));
  return {
    parts,
    rows: slice.map((r) => {
      const file = byShipment.get(r.shipmentId);
      const label = file?.type && file.content ? { type: file.type, content: file.content } : null;
      return { ...r, label, withheld: file ? labelWithheld(file) : null };
    }),
  };
}

/**
 * GET /v1/batches/{id}/labels.pdf: one part's labels as one PDF in CSV order, a 4×6 page per label (or two per
 * Letter/A4 sheet). PDF labels are copied page for page, PNG labels drawn on a 4×6 page at their size; a ZPL label
 * cannot be drawn and is listed as not included, never dropped silently.
 */
export async function batchLabelsPdf({
  ctx,
  id,
  query,
}: {
  ctx: DomainContext;
  id: string;
  query: BatchPrintQuery;
}): Promise<PrintFile> {
  await findBatch(ctx, id);
  const { parts, rows } = await partRows(ctx, id, query.part);
  const lib = await pdfLib();
  const doc = await lib.PDFDocument.create();
  doc.setProducer("shipwell");
  doc.setTitle(`Batch ${id} labels, part ${query.part} of ${parts}`);
  await printAtActualSize(doc);
  const notIncluded: PrintFile["notIncluded"] = [];
  for (const row of rows) {
    const label = row.label;
    if (row.withheld) {
      notIncluded.push({ line: row.line, reason: row.withheld });
    } else if (!label) {
      notIncluded.push({ line: row.line, reason: "the label file is missing" });
    } else if (label.type === "PDF" && isPdf(label.content)) {
      try {
        const src = await lib.PDFDocument.load(label.content, { updateMetadata: false });
        for (const page of await doc.copyPages(src, src.getPageIndices())) doc.addPage(page);
      } catch {
        notIncluded.push({ line: row.line, reason: "the carrier's PDF cannot be read" });
      }
    } else if (label.type === "PNG" && isPng(label.content)) {
      const image = await doc.embedPng(label.content);
      const page = doc.addPage([288, 432]);
      const scale = Math.min(288 / image.width, 432 / image.height);
      page.drawImage(image, {
        x: 0,
        y: 432 - image.height * scale,
        width: image.width * scale,
        height: image.height * scale,
      });
    } else {
      notIncluded.push({
        line: row.line,
        reason: `a ${label.type} label cannot be drawn in a PDF; download labels.zpl`,
      });
    }
  }
  const out = query.sheet === "label" ? doc : await twoPerSheet(doc, query.sheet, lib);
  await audit(ctx, id, "PDF", query.part, rows.length - notIncluded.length);
  const suffix = query.sheet === "label" ? "" : `-${query.sheet}`;
  return {
    contentType: "application/pdf",
    filename: `${id}-labels-${query.part}${suffix}.pdf`,
    content: await out.save(),
    notIncluded,
    parts,
  };
}

/** GET /v1/batches/{id}/labels.zpl: one part's ZPL labels in CSV order; labels in other formats listed as not included. */
export async function batchLabelsZpl({
  ctx,
  id,
  part,
}: {
  ctx: DomainContext;
  id: string;
  part: number;
}): Promise<PrintFile> {
  await findBatch(ctx, id);
  const { parts, rows } = await partRows(ctx, id, part);
  const chunks: Buffer[] = [];
  const notIncluded: PrintFile["notIncluded"] = [];
  for (const row of rows) {
    if (row.withheld) notIncluded.push({ line: row.line, reason: row.withheld });
    else if (row.label?.type === "ZPL") chunks.push(Buffer.from(row.label.content), Buffer.from("\n"));
    else
      notIncluded.push({
        line: row.line,
        reason: row.label ? `a ${row.label.type} label is not ZPL; download labels.pdf` : "the label file is missing",
      });
  }
  await audit(ctx, id, "ZPL", part, rows.length - notIncluded.length);
  return {
    contentType: "application/zpl",
    filename: `${id}-labels-${part}.zpl`,
    content: Buffer.concat(chunks),
    notIncluded,
    parts,
  };
}

async function audit(ctx: DomainContext, id: string, type: string, part: number, included: number) {
  await withTransaction(ctx, (tx) =>
    recordAudit(tx, {
      action: "batch.labels_downloaded",
      resourceId: id,
      summary: { label_type: type, part, labels: included },
    }),
  );
}

/** GET /v1/batches/{id}/packing-list.pdf: every row of the batch in CSV order, what was bought and what was not. */
export async function batchPackingList({ ctx, id }: { ctx: DomainContext; id: string }): Promise<Uint8Array> {
  const batch = await findBatch(ctx, id);
  const rows = await ctx.db
    .select({
      line: batchRows.line,
      state: batchRows.state,
      input: batchRows.input,
      errorCode: batchRows.errorCode,
      tracking: shipments.trackingNumber,
      service: shipments.service,
      name: addresses.personName,
      company: addresses.companyName,
      city: addresses.city,
      postal: addresses.postalCode,
      country: addresses.countryCode,
    })
    .from(batchRows)
    .leftJoin(shipments, and(eq(shipments.id, batchRows.shipmentId), eq(shipments.orgId, ctx.org.id)))
    .leftJoin(addresses, eq(addresses.id, shipments.recipientId))
    .where(eq(batchRows.batchId, id))
    .orderBy(asc(batchRows.line));
  const lib = await pdfLib();
  const doc = await lib.PDFDocument.create();
  doc.setProducer("shipwell");
  doc.setTitle(`Packing list, batch ${id}`);
  const fonts = await pdfText(doc, JSON.stringify([batch.filename, rows]));
  const [W, H, M, LINE] = [612, 792, 36, 14];
  const cols = [
    { title: "Line", x: 0, width: 34 },
    { title: "Order", x: 34, width: 80 },
    { title: "Recipient", x: 114, width: 150 },
    { title: "City", x: 264, width: 110 },
    { title: "Service", x: 374, width: 70 },
    { title: "Tracking / status", x: 444, width: 96 },
  ];
  const ref = batch.mapping.reference;
  let page = doc.addPage([W, H]);
  let y = H - M;
  const header = () => {
    const title = `Packing list: batch ${id}${batch.filename ? ` (${batch.filename})` : ""}`;
    fonts.draw(page, title, { x: M, y, size: 11, bold: true });
    y -= LINE * 1.5;
    for (const c of cols) fonts.draw(page, c.title, { x: M + c.x, y, size: 8, bold: true });
    y -= LINE;
  };
  header();
  const fit = (text: string, width: number) => {
    let t = Array.from(text);
    while (t.length > 1 && fonts.widthOf(t.join(""), 8) > width - 4) t = t.slice(0, -1);
    return t.join("");
  };
  for (const r of rows) {
    if (y < M) {
      page = doc.addPage([W, H]);
      y = H - M;
      header();
    }
    const cells = [
      String(r.line),
      ref ? (r.input[ref] ?? "") : "",
      [r.name, r.company].filter(Boolean).join(", "),
      [r.postal, r.city, r.country].filter(Boolean).join(" "),
      r.service ?? "",
      r.state === "purchased" ? (r.tracking ?? "") : r.state === "failed" ? `failed: ${r.errorCode ?? ""}` : r.state,
    ];
    cells.forEach((text, i) => fonts.draw(page, fit(text, cols[i]!.width), { x: M + cols[i]!.x, y, size: 8 }));
    y -= LINE;
  }
  return doc.save();
}
