import { CODE128_QUIET_ZONE, code128Pattern, type Code128Pattern } from "@/lib/labels/barcode";
import { addressLines, singleLine, type LabelContent } from "@/lib/labels/content";

/**
 * One 4×6 inch layout shared by every format, in printer dots at 203 dpi (the common thermal-printer resolution):
 * ZPL uses the numbers as they are, the PNG is exactly this many pixels, and the PDF scales them to points.
 * Keeping a single layout means a PDF, a PNG and a ZPL label of the same shipment show the same things in the same
 * places, and a layout change is made once.
 */

export const LABEL_DPI = 203;
export const LABEL_WIDTH_DOTS = 812; // 4 in
export const LABEL_HEIGHT_DOTS = 1218; // 6 in

type TextAlign = "left" | "center";

export interface TextElement {
  kind: "text";
  /** Left edge of the text box. */
  x: number;
  /** Top of the text cell. */
  y: number;
  /** Cell height in dots (ascender to descender). */
  size: number;
  text: string;
  bold: boolean;
  /** Width of the text box; centred text is centred in it, and no text may run past it. */
  width: number;
  align: TextAlign;
}

/** A solid black rectangle: rules and borders. */
interface BoxElement {
  kind: "box";
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface BarcodeElement {
  kind: "barcode";
  /** Left edge of the first bar (quiet zones are outside this box). */
  x: number;
  y: number;
  height: number;
  /** Dots per narrowest bar. */
  moduleWidth: number;
  value: string;
  pattern: Code128Pattern;
}

export type LabelElement = TextElement | BoxElement | BarcodeElement;

const MARGIN = 24;
const INNER_WIDTH = LABEL_WIDTH_DOTS - 2 * MARGIN;
/** Upper bound of a glyph's advance relative to its cell height for the fonts we draw with (OCR-B is 0.625). */
const MAX_ADVANCE_RATIO = 0.64;

/** Cuts text that could not fit `width` at `size`, so no renderer has to guess what to drop. */
function fitText(text: string, size: number, width: number): string {
  const chars = Array.from(singleLine(text).trim());
  const max = Math.max(1, Math.floor(width / (size * MAX_ADVANCE_RATIO)));
  return chars.length <= max ? chars.join("") : chars.slice(0, max - 1).join("") + ".";
}

function text(
  x: number,
  y: number,
  size: number,
  value: string,
  width: number,
  opts: { bold?: boolean; align?: TextAlign } = {},
): TextElement {
  return {
    kind: "text",
    x,
    y,
    size,
    text: fitText(value, size, width),
    bold: opts.bold ?? false,
    width,
    align: opts.align ?? "left",
  };
}

function rule(y: number, height = 4): BoxElement {
  return { kind: "box", x: 0, y, width: LABEL_WIDTH_DOTS, height };
}

/** The widest module (up to 4 dots) at which the symbol and its quiet zones still fit the label. */
function barcodeModuleWidth(pattern: Code128Pattern): number {
  for (const m of [4, 3, 2]) if ((pattern.modules + 2 * CODE128_QUIET_ZONE) * m <= INNER_WIDTH) return m;
  return 1;
}

export function layoutLabel(content: LabelContent): LabelElement[] {
  const els: LabelElement[] = [];

  // Header: carrier, service, ship date.
  els.push(text(MARGIN, 24, 64, content.carrierName.toUpperCase(), 360, { bold: true }));
  els.push(text(400, 30, 26, content.serviceName, LABEL_WIDTH_DOTS - 400 - MARGIN, { bold: true }));
  els.push(text(400, 70, 24, `SHIP DATE: ${content.shipDate}`, LABEL_WIDTH_DOTS - 400 - MARGIN));
  els.push(rule(110));

  // Sender (small) with weight and reference beside it.
  els.push(text(MARGIN, 126, 22, "FROM", 200, { bold: true }));
  addressLines(content.shipper)
    .slice(0, 6)
    .forEach((line, i) => els.push(text(MARGIN, 154 + i * 30, 24, line, 480)));
  els.push(text(520, 126, 22, "WEIGHT", 268, { bold: true }));
  els.push(text(520, 152, 26, content.weightText, 268));
  if (content.reference) {
    els.push(text(520, 196, 22, "REF", 268, { bold: true }));
    els.push(text(520, 222, 24, content.reference, 268));
  }
  els.push(rule(340));

  // Recipient (large): the part a sorter reads first.
  els.push(text(MARGIN, 356, 26, "SHIP TO", 300, { bold: true }));
  addressLines(content.recipient)
    .slice(0, 6)
    .forEach((line, i) => els.push(text(MARGIN, 392 + i * 44, 36, line, INNER_WIDTH, { bold: true })));
  els.push(rule(664));

  // Routing and tracking number.
  if (content.routingText) els.push(text(MARGIN, 680, 44, content.routingText, INNER_WIDTH, { bold: true }));
  els.push(text(MARGIN, 738, 22, "TRACKING #", 300, { bold: true }));
  els.push(text(MARGIN, 764, 34, content.trackingNumber, INNER_WIDTH, { bold: true }));
  els.push(rule(812, 2));

  // Barcode, centred, with its human-readable line under it.
  const pattern = code128Pattern(content.barcodeValue);
  const moduleWidth = barcodeModuleWidth(pattern);
  const barsWidth = pattern.modules * moduleWidth;
  els.push({
    kind: "barcode",
    x: Math.round((LABEL_WIDTH_DOTS - barsWidth) / 2),
    y: 840,
    height: 210,
    moduleWidth,
    value: content.barcodeValue,
    pattern,
  });
  els.push(text(MARGIN, 1064, 28, content.barcodeValue, INNER_WIDTH, { align: "center" }));
  els.push(rule(1110));

  if (content.footerText)
    els.push(text(MARGIN, 1130, 26, content.footerText, INNER_WIDTH, { bold: true, align: "center" }));
  els.push(text(MARGIN, 1172, 20, `${content.carrierName} - ${content.serviceName}`, INNER_WIDTH, { align: "center" }));
  return els;
}
