import { CODE128_QUIET_ZONE, code128Pattern, type Code128Pattern } from "@/lib/labels/barcode";
import { addressLineFields, singleLine, type LabelContent } from "@/lib/labels/content";

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
/** Upper bound of a glyph's advance relative to its cell height for the fonts we cannot measure (OCR-B is 0.625). */
const MAX_ADVANCE_RATIO = 0.64;

/** Width in dots of `text` drawn in a cell `size` dots high. */
export type MeasureText = (text: string, size: number, bold: boolean) => number;

/**
 * The width bound an all-ASCII PNG (OCR-B, monospaced) and ZPL (the printer's own font 0, which we cannot measure) are
 * laid out with, and the one the warnings before buying use: a line of Latin letters that fits by it fits in every
 * format. Any other PNG measures with the Noto fonts it draws, where an ideograph is wider than this bound.
 */
const estimateWidth: MeasureText = (text, size) =>
  Array.from(text).reduce((sum, ch) => sum + size * (WIDE.test(ch) ? WIDE_ADVANCE_RATIO : MAX_ADVANCE_RATIO), 0);

/**
 * Ideographs, kana, Hangul and fullwidth forms are a full em wide in the Noto fonts the PDF and PNG draw them with:
 * the PDF's em is the cell's 1 / 1.15 (lib/labels/pdf.ts), well past MAX_ADVANCE_RATIO, so a line of them measured
 * by the Latin bound would fit here and be cut on the label, without a warning.
 */
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{20000}-\u{3fffd}]/u;
const WIDE_ADVANCE_RATIO = 1 / 1.15;

/** A line shrinks to fit, never below half its size: smaller, a 203 dpi printer's letters stop being legible. */
const MIN_TEXT_SCALE = 0.5;

/** What the label could not print whole: the fields ("recipient.address_line1", "reference") cut even at the smallest size. */
interface LabelLayout {
  elements: LabelElement[];
  cut: string[];
}

interface Box {
  /** The field it prints, named in `cut` when it had to be cut; null for text of our own. */
  field: string | null;
  x: number;
  y: number;
  size: number;
  width: number;
  bold?: boolean;
  align?: TextAlign;
  /** Lines the text may wrap onto (below the first, each `size * 1.1` further down). */
  lines?: number;
}

/** Greedy line breaking: at spaces, and inside a word only when the word alone is too wide. */
function wrap(text: string, fits: (line: string) => boolean): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/(?<=\s)/)) {
    if (fits((line + word).trimEnd())) {
      line += word;
      continue;
    }
    if (line.trim()) lines.push(line.trimEnd());
    line = "";
    for (const ch of word) {
      if (line === "" && /\s/.test(ch)) continue;
      if (line && !fits((line + ch).trimEnd())) {
        lines.push(line.trimEnd());
        line = "";
      }
      line += ch;
    }
  }
  if (line.trim()) lines.push(line.trimEnd());
  return lines;
}

const CUT_MARK = "...";
/** How far text in a box of several lines shrinks to stay on one line before it wraps instead. */
const ONE_LINE_SCALE = 0.7;

/**
 * Fits `value` in its box: whole at its size if it can, else wrapped onto the box's lines, else shrunk (down to
 * MIN_TEXT_SCALE); only what still does not fit is cut, and the field is reported.
 */
function fit(box: Box, value: string, measure: MeasureText, cut: string[]): TextElement[] {
  const text = singleLine(value).trim();
  const bold = box.bold ?? false;
  const maxLines = box.lines ?? 1;
  const element = (line: string, size: number, i: number): TextElement => ({
    kind: "text",
    x: box.x,
    // Shrunk text keeps its baseline; wrapped lines go down from there.
    y: box.y + Math.round((box.size - size) * 0.8) + Math.round(i * size * 1.1),
    size,
    text: line,
    bold,
    width: box.width,
    align: box.align ?? "left",
  });
  const smallest = Math.ceil(box.size * MIN_TEXT_SCALE);
  const linesAt = (size: number) => wrap(text, (line) => measure(line, size, bold) <= box.width);

  const full = measure(text, box.size, bold);
  if (full <= box.width) return [element(text, box.size, 0)];
  // Widths grow in proportion to size, so the size that fits one line is one division away. Where the box has more
  // lines, one line is kept while it stays large (a reference is read, and copied, more easily unbroken).
  const oneLine = Math.floor((box.size * box.width) / full);
  if (oneLine >= (maxLines === 1 ? smallest : Math.ceil(box.size * ONE_LINE_SCALE))) return [element(text, oneLine, 0)];
  if (maxLines > 1) {
    for (let size = box.size; size >= smallest; size--) {
      const lines = linesAt(size);
      if (lines.length <= maxLines) return lines.map((line, i) => element(line, size, i));
    }
  }
  if (box.field) cut.push(box.field);
  const lines = maxLines === 1 ? [text] : linesAt(smallest).slice(0, maxLines);
  const last = Array.from(lines.at(-1) ?? "");
  while (last.length > 1 && measure(last.join("") + CUT_MARK, smallest, bold) > box.width) last.pop();
  lines[lines.length - 1] = last.join("").trimEnd() + CUT_MARK;
  return lines.map((line, i) => element(line, smallest, i));
}

function rule(y: number, height = 4): BoxElement {
  return { kind: "box", x: 0, y, width: LABEL_WIDTH_DOTS, height };
}

/** The widest module (up to 4 dots) at which the symbol and its quiet zones still fit the label. */
function barcodeModuleWidth(pattern: Code128Pattern): number {
  for (const m of [4, 3, 2]) if ((pattern.modules + 2 * CODE128_QUIET_ZONE) * m <= INNER_WIDTH) return m;
  return 1;
}

/** Lines an address block holds at its full size and spacing. */
const ADDRESS_LINES = 6;

/**
 * Spacing and letter size of an address block of `lines` lines: up to six at full size; more (name, company, two
 * street lines, a locality, the town, a UK postcode on its own line and the country make eight) closer and smaller
 * in the same height, so no line, least of all the postcode or the country, is left off.
 */
function addressPitch(lines: number, pitch: number, size: number): { pitch: number; size: number } {
  if (lines <= ADDRESS_LINES) return { pitch, size };
  const height = (ADDRESS_LINES - 1) * pitch + size;
  const fitted = Math.floor(height / (lines - 1 + size / pitch));
  return { pitch: fitted, size: Math.floor((fitted * size) / pitch) };
}

/** The label's elements, text fitted by `measure` (the renderer's font; the bound of every format by default). */
export function layoutLabel(content: LabelContent, measure: MeasureText = estimateWidth): LabelElement[] {
  return fitLabel(content, measure).elements;
}

export function fitLabel(content: LabelContent, measure: MeasureText = estimateWidth): LabelLayout {
  const els: LabelElement[] = [];
  const cut: string[] = [];
  const text = (box: Box, value: string) => els.push(...fit(box, value, measure, cut));
  const x = MARGIN;

  // Header: carrier, service, ship date.
  text({ field: null, x, y: 24, size: 64, width: 360, bold: true }, content.carrierName.toUpperCase());
  text(
    { field: null, x: 400, y: 30, size: 26, width: LABEL_WIDTH_DOTS - 400 - MARGIN, bold: true },
    content.serviceName,
  );
  text(
    { field: null, x: 400, y: 70, size: 24, width: LABEL_WIDTH_DOTS - 400 - MARGIN },
    `SHIP DATE: ${content.shipDate}`,
  );
  els.push(rule(110));

  // Sender (small) with weight and reference beside it.
  text({ field: null, x, y: 126, size: 22, width: 200, bold: true }, "FROM");
  const shipperLines = addressLineFields(content.shipper);
  const from = addressPitch(shipperLines.length, 30, 24);
  shipperLines.forEach((line, i) =>
    text({ field: `shipper.${line.field}`, x, y: 154 + i * from.pitch, size: from.size, width: 480 }, line.text),
  );
  text({ field: null, x: 520, y: 126, size: 22, width: 268, bold: true }, "WEIGHT");
  text({ field: null, x: 520, y: 152, size: 26, width: 268 }, content.weightText);
  if (content.reference) {
    text({ field: null, x: 520, y: 196, size: 22, width: 268, bold: true }, "REF");
    // Three lines of 26 dots: a carrier's longest reference (35 characters) wraps whole at full size.
    text({ field: "reference", x: 520, y: 222, size: 24, width: 268, lines: 3 }, content.reference);
  }
  els.push(rule(340));

  // Recipient (large): the part a sorter reads first.
  text({ field: null, x, y: 356, size: 26, width: 300, bold: true }, "SHIP TO");
  const recipientLines = addressLineFields(content.recipient);
  const to = addressPitch(recipientLines.length, 44, 36);
  recipientLines.forEach((line, i) =>
    text(
      { field: `recipient.${line.field}`, x, y: 392 + i * to.pitch, size: to.size, width: INNER_WIDTH, bold: true },
      line.text,
    ),
  );
  els.push(rule(664));

  // Routing and tracking number.
  if (content.routingText)
    text({ field: null, x, y: 680, size: 44, width: INNER_WIDTH, bold: true }, content.routingText);
  text({ field: null, x, y: 738, size: 22, width: 300, bold: true }, "TRACKING #");
  text({ field: null, x, y: 764, size: 34, width: INNER_WIDTH, bold: true }, content.trackingNumber);
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
  text({ field: null, x, y: 1064, size: 28, width: INNER_WIDTH, align: "center" }, content.barcodeValue);
  els.push(rule(1110));

  if (content.footerText)
    text({ field: null, x, y: 1130, size: 26, width: INNER_WIDTH, bold: true, align: "center" }, content.footerText);
  text(
    { field: null, x, y: 1172, size: 20, width: INNER_WIDTH, align: "center" },
    `${content.carrierName} - ${content.serviceName}`,
  );
  return { elements: els, cut };
}
