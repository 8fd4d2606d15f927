import type { Color, PDFDocument, PDFFont } from "pdf-lib";
import { foldLatin, type LabelContent } from "@/lib/labels/content";
import { LABEL_DPI, layoutLabel, type TextElement } from "@/lib/labels/layout";
import { pdfLib } from "@/lib/labels/pdf-lib";
import { printAtActualSize } from "@/lib/labels/print-ready";

/** A 4×6 inch page: 288 × 432 points (the layout's 812 × 1218 dots at 203 dpi). */
export const PDF_PAGE_WIDTH = 288;
export const PDF_PAGE_HEIGHT = 432;

const PT_PER_DOT = 72 / LABEL_DPI;
// Cell height → font size: Helvetica's ascender+descender span is about 1.15 em.
const EM_PER_CELL = 1 / 1.15;
// Baseline sits this far down the text cell (the rest is room for descenders).
const BASELINE = 0.8;

/**
 * The standard 14 fonts only cover WinAnsi; anything else would make pdf-lib throw. Characters the font lacks are
 * folded (é stays, ő → o, Ł → L) or replaced by "?", so an address in any script still produces a valid label.
 */
export function encodable(font: PDFFont, text: string): string {
  const supported = new Set(font.getCharacterSet());
  let out = "";
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0x3f;
    if (supported.has(cp)) {
      out += ch;
      continue;
    }
    const folded = foldLatin(ch);
    out += folded.length > 0 && Array.from(folded).every((c) => supported.has(c.codePointAt(0) ?? 0)) ? folded : "?";
  }
  return out;
}

function drawText(page: ReturnType<PDFDocument["addPage"]>, el: TextElement, font: PDFFont, color: Color): void {
  const value = encodable(font, el.text);
  const maxWidth = el.width * PT_PER_DOT;
  let size = el.size * PT_PER_DOT * EM_PER_CELL;
  // The layout already cut the text for a worst-case font; shrink the rare line that still overflows.
  const measured = font.widthOfTextAtSize(value, size);
  if (measured > maxWidth) size = (size * maxWidth) / measured;
  const width = font.widthOfTextAtSize(value, size);
  const x = el.align === "center" ? el.x * PT_PER_DOT + (maxWidth - width) / 2 : el.x * PT_PER_DOT;
  const baselineFromTop = (el.y + el.size * BASELINE) * PT_PER_DOT;
  page.drawText(value, { x, y: PDF_PAGE_HEIGHT - baselineFromTop, size, font, color });
}

export async function renderPdfLabel(content: LabelContent): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts, rgb } = await pdfLib();
  const black = rgb(0, 0, 0);
  const doc = await PDFDocument.create();
  doc.setTitle(`${content.carrierName} label ${content.trackingNumber}`);
  doc.setSubject(`${content.serviceName} shipping label`);
  doc.setProducer("shipwell");
  doc.setCreator("shipwell");
  await printAtActualSize(doc);
  // Stable dates keep the output a pure function of the content (handy for caching and tests).
  const date = new Date(`${content.shipDate}T00:00:00Z`);
  if (!Number.isNaN(date.getTime())) {
    doc.setCreationDate(date);
    doc.setModificationDate(date);
  }

  const page = doc.addPage([PDF_PAGE_WIDTH, PDF_PAGE_HEIGHT]);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);

  for (const el of layoutLabel(content)) {
    if (el.kind === "text") {
      drawText(page, el, el.bold ? bold : regular, black);
    } else if (el.kind === "box") {
      page.drawRectangle({
        x: el.x * PT_PER_DOT,
        y: PDF_PAGE_HEIGHT - (el.y + el.height) * PT_PER_DOT,
        width: el.width * PT_PER_DOT,
        height: el.height * PT_PER_DOT,
        color: black,
      });
    } else {
      // Vector bars straight from the Code 128 pattern: sharp at any zoom or printer resolution, and no PNG to
      // encode and decode for every label.
      const moduleWidth = el.moduleWidth * PT_PER_DOT;
      const y = PDF_PAGE_HEIGHT - (el.y + el.height) * PT_PER_DOT;
      let x = el.x * PT_PER_DOT;
      el.pattern.widths.forEach((w, i) => {
        if (i % 2 === 0)
          page.drawRectangle({ x, y, width: w * moduleWidth, height: el.height * PT_PER_DOT, color: black });
        x += w * moduleWidth;
      });
    }
  }
  return doc.save();
}
