import type { PDFDocument, PDFPage } from "pdf-lib";
import type { LabelType } from "@/lib/carriers/types";
import { pngPhysicalSize } from "@/lib/labels/png-size";
import { pdfLib, type PdfLib } from "@/lib/labels/pdf-lib";
import { printAtActualSize } from "@/lib/labels/print-ready";

/**
 * A 4×6 label laid on office paper, for clerks without a label printer: the label is turned a quarter so its 6 in
 * side runs across the sheet, and placed at 100% on the top half. Never scaled: a shrunk barcode's narrow bars
 * fall under what scanners resolve. The numbers work out: turned, a 4×6 label is 432×288 pt; half a Letter sheet is
 * 612×396 pt, half an A4 sheet 595.28×420.94 pt (even a 4×8 label, 576×288 pt turned, fits both).
 *
 * The lower half stays empty for now: bulk printing will put a second label there (two per sheet), and a clerk may
 * feed a half-used sheet back in.
 */

export type SheetLayout = "letter" | "a4";

/** Paper in points (1/72 in): US Letter is 8.5×11 in, A4 210×297 mm. */
export const SHEET_SIZES: Record<SheetLayout, { name: string; width: number; height: number }> = {
  letter: { name: "Letter", width: 612, height: 792 },
  a4: { name: "A4", width: 595.28, height: 841.89 },
};

/** A label that cannot be laid on a sheet; the message says why and what to do instead. */
export class SheetLayoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SheetLayoutError";
  }
}

// Half a point of slack for sizes written with rounding (a 203 dpi PNG is 288.004 pt wide).
const SLACK = 0.5;
const CUT_MARGIN = 18;

type QuarterTurns = 0 | 90 | 180 | 270;

interface Placed {
  /** Width and height of the item as drawn, before turning (a PDF page's crop box, an image's size). */
  width: number;
  height: number;
  /** Counter-clockwise turn applied when drawing. */
  turn: QuarterTurns;
}

/** The footprint of an item once turned. */
function footprint({ width, height, turn }: Placed): { width: number; height: number } {
  return turn === 90 || turn === 270 ? { width: height, height: width } : { width, height };
}

/**
 * pdf-lib turns an item about its origin, so the origin moves with the turn: this is where it must go for the turned
 * item's lower-left corner to land on (x, y).
 */
function originFor(item: Placed, x: number, y: number): { x: number; y: number } {
  switch (item.turn) {
    case 0:
      return { x, y };
    case 90:
      return { x: x + item.height, y };
    case 180:
      return { x: x + item.width, y: y + item.height };
    case 270:
      return { x, y: y + item.width };
  }
}

/**
 * The counter-clockwise turn that lays the label's long side across the sheet, given how it is seen: a viewer shows
 * a PDF page turned clockwise by its /Rotate, so that much is taken off.
 */
function turnFor(seenWidth: number, seenHeight: number, shownTurnedClockwise = 0): QuarterTurns {
  const wanted = seenHeight > seenWidth ? 90 : 0;
  return ((((wanted - shownTurnedClockwise) % 360) + 360) % 360) as QuarterTurns;
}

/** A new sheet with its cut line; answers where the label goes, or throws when it does not fit at 100%. */
function addSheet(
  { grayscale }: PdfLib,
  doc: PDFDocument,
  layout: SheetLayout,
  item: Placed,
): { page: PDFPage; x: number; y: number } {
  const sheet = SHEET_SIZES[layout];
  const half = sheet.height / 2;
  const size = footprint(item);
  if (size.width > sheet.width + SLACK || size.height > half + SLACK) {
    const [short, long] = [item.width, item.height]
      .sort((a, b) => a - b)
      .map((pt) => Math.round((pt / 72) * 100) / 100);
    throw new SheetLayoutError(
      `The label is ${short}×${long} in and does not fit half a ${sheet.name} sheet at ` +
        "actual size; download it as bought (layout=label) and print it on label stock.",
    );
  }
  const page = doc.addPage([sheet.width, sheet.height]);
  page.drawLine({
    start: { x: CUT_MARGIN, y: half },
    end: { x: sheet.width - CUT_MARGIN, y: half },
    thickness: 0.5,
    color: grayscale(0.6),
    dashArray: [6, 4],
  });
  const at = originFor(item, (sheet.width - size.width) / 2, half + (half - size.height) / 2);
  return { page, ...at };
}

async function layPdf(lib: PdfLib, doc: PDFDocument, pdf: Uint8Array, layout: SheetLayout): Promise<void> {
  let pages: PDFPage[];
  try {
    // pdf-lib refuses some files on load and others only once it reaches a missing catalog or page tree.
    pages = (await lib.PDFDocument.load(pdf, { updateMetadata: false })).getPages();
  } catch {
    pages = [];
  }
  if (pages.length === 0) {
    throw new SheetLayoutError("The label PDF cannot be read to lay it on a sheet; download it as bought.");
  }
  for (const sourcePage of pages) {
    const crop = sourcePage.getCropBox();
    const box = { left: crop.x, bottom: crop.y, right: crop.x + crop.width, top: crop.y + crop.height };
    const embedded = await doc.embedPage(sourcePage, box);
    // A page's /Rotate turns it clockwise for display; embedding ignores it, so the turn makes up for it.
    const rotate = sourcePage.getRotation().angle;
    const sideways = rotate % 180 !== 0;
    const seen = sideways ? { width: crop.height, height: crop.width } : crop;
    const item: Placed = {
      width: embedded.width,
      height: embedded.height,
      turn: turnFor(seen.width, seen.height, rotate),
    };
    const { page, x, y } = addSheet(lib, doc, layout, item);
    page.drawPage(embedded, { x, y, xScale: 1, yScale: 1, rotate: lib.degrees(item.turn) });
  }
}

async function layPng(lib: PdfLib, doc: PDFDocument, png: Uint8Array, layout: SheetLayout): Promise<void> {
  const image = await doc.embedPng(png).catch(() => {
    throw new SheetLayoutError("The label PNG cannot be read to lay it on a sheet; download it as bought.");
  });
  const size = pngPhysicalSize(png, image.width, image.height);
  const item: Placed = { ...size, turn: turnFor(size.width, size.height) };
  const { page, x, y } = addSheet(lib, doc, layout, item);
  page.drawImage(image, { x, y, width: size.width, height: size.height, rotate: lib.degrees(item.turn) });
}

/**
 * One sheet of `layout` paper per page of the label, the label at the top at 100%, flagged to print at actual size.
 * ZPL is printer commands, not a picture, and cannot be laid on paper.
 */
export async function layOnSheet(
  label: { type: LabelType; content: Uint8Array },
  layout: SheetLayout,
  title?: string,
): Promise<Uint8Array> {
  if (label.type === "ZPL") {
    throw new SheetLayoutError(
      `A ZPL label is commands for a thermal printer and cannot be laid on ${SHEET_SIZES[layout].name} paper; ` +
        "print it on a ZPL printer, or buy the label as PDF or PNG.",
    );
  }
  const lib = await pdfLib();
  const doc = await lib.PDFDocument.create();
  doc.setProducer("shipwell");
  doc.setCreator("shipwell");
  if (title) doc.setTitle(title);
  await printAtActualSize(doc);
  if (label.type === "PDF") await layPdf(lib, doc, label.content, layout);
  else await layPng(lib, doc, label.content, layout);
  return doc.save();
}

/**
 * 4×6 label pages two to a sheet of `layout` paper (batch printing): each page turned a quarter and placed at 100%
 * on one half, the cut line between them. A page that does not fit half the sheet is refused, as for one label.
 */
export async function twoPerSheet(labels4x6: PDFDocument, layout: SheetLayout, lib: PdfLib): Promise<PDFDocument> {
  const doc = await lib.PDFDocument.create();
  doc.setProducer("shipwell");
  await printAtActualSize(doc);
  const sources = labels4x6.getPages();
  const embedded = sources.length === 0 ? [] : await doc.embedPages(sources);
  const sheet = SHEET_SIZES[layout];
  const half = sheet.height / 2;
  for (let i = 0; i < embedded.length; i += 2) {
    let page: PDFPage | null = null;
    for (const [slot, label] of [embedded[i], embedded[i + 1]].entries()) {
      if (!label) continue;
      const item: Placed = { width: label.width, height: label.height, turn: turnFor(label.width, label.height) };
      if (!page) {
        const placed = addSheet(lib, doc, layout, item);
        page = placed.page;
      }
      const size = footprint(item);
      const bottom = slot === 0 ? half + (half - size.height) / 2 : (half - size.height) / 2;
      const at = originFor(item, (sheet.width - size.width) / 2, bottom);
      page.drawPage(label, { x: at.x, y: at.y, rotate: lib.degrees(item.turn) });
    }
  }
  return doc;
}
