import type { PDFPage } from "pdf-lib";
import type { LabelContent } from "@/lib/labels/content";
import { pdfText, type PdfText } from "@/lib/labels/fonts";
import { LABEL_DPI, layoutLabel, type MeasureText, type TextElement } from "@/lib/labels/layout";
import { pdfLib } from "@/lib/labels/pdf-lib";
import { printAtActualSize } from "@/lib/labels/print-ready";

/** A 4×6 inch page: 288 × 432 points (the layout's 812 × 1218 dots at 203 dpi). */
export const PDF_PAGE_WIDTH = 288;
export const PDF_PAGE_HEIGHT = 432;

const PT_PER_DOT = 72 / LABEL_DPI;
// Cell height → font size: the cell holds ascender to descender of a Helvetica-sized line (1.15 em), and Noto Sans
// at that size has Helvetica's cap height.
const EM_PER_CELL = 1 / 1.15;
// Baseline sits this far down the text cell (the rest is room for descenders).
const BASELINE = 0.8;

function drawText(page: PDFPage, el: TextElement, fonts: PdfText): void {
  const maxWidth = el.width * PT_PER_DOT;
  let size = el.size * PT_PER_DOT * EM_PER_CELL;
  // The layout fitted the text with these fonts' own widths; this only catches rounding.
  const measured = fonts.widthOf(el.text, size, el.bold);
  if (measured > maxWidth) size = (size * maxWidth) / measured;
  const width = fonts.widthOf(el.text, size, el.bold);
  const x = el.align === "center" ? el.x * PT_PER_DOT + (maxWidth - width) / 2 : el.x * PT_PER_DOT;
  const baselineFromTop = (el.y + el.size * BASELINE) * PT_PER_DOT;
  fonts.draw(page, el.text, { x, y: PDF_PAGE_HEIGHT - baselineFromTop, size, bold: el.bold });
}

/** Text widths in layout dots, by the fonts the PDF embeds. */
function pdfMeasure(fonts: PdfText): MeasureText {
  return (text, size, bold) => fonts.widthOf(text, size * EM_PER_CELL, bold);
}

export async function renderPdfLabel(content: LabelContent): Promise<Uint8Array> {
  const lib = await pdfLib();
  const { PDFDocument, rgb } = lib;
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
  const fonts = await pdfText(doc, JSON.stringify(content));

  for (const el of layoutLabel(content, pdfMeasure(fonts))) {
    if (el.kind === "text") {
      drawText(page, el, fonts);
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
      // encode and decode for every label. One path of rectangles filled once: drawn one by one, each bar brought
      // its own graphics state and fill, a tenth of a label's time.
      const moduleWidth = el.moduleWidth * PT_PER_DOT;
      const y = PDF_PAGE_HEIGHT - (el.y + el.height) * PT_PER_DOT;
      const height = el.height * PT_PER_DOT;
      const ops = [lib.pushGraphicsState(), lib.setFillingColor(black)];
      let x = el.x * PT_PER_DOT;
      el.pattern.widths.forEach((w, i) => {
        if (i % 2 === 0) ops.push(lib.rectangle(x, y, w * moduleWidth, height));
        x += w * moduleWidth;
      });
      ops.push(lib.fill(), lib.popGraphicsState());
      page.pushOperators(...ops);
    }
  }
  // One label or invoice is a few dozen objects: written in one go. pdf-lib otherwise yields to a timer every 50
  // objects, which the embedded fonts' objects now reach, and a purchase waits a timer turn for nothing.
  return doc.save({ objectsPerTick: Infinity });
}
