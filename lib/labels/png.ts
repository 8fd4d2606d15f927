import { crc32 } from "node:zlib";
import bwipjs from "bwip-js/node";
import { PNG } from "pngjs";
import { toPrintableAscii, type LabelContent } from "@/lib/labels/content";
import { FILES, fontBytes } from "@/lib/labels/fonts";
import {
  LABEL_DPI,
  LABEL_HEIGHT_DOTS,
  LABEL_WIDTH_DOTS,
  layoutLabel,
  type BarcodeElement,
  type MeasureText,
  type TextElement,
} from "@/lib/labels/layout";

/**
 * A 4×6 label as an 812×1218 grayscale PNG (203 dpi, the resolution thermal printers print at 1:1).
 *
 * There is no canvas library in the project, so the image is composed on a plain byte buffer: rules are filled
 * rectangles, bars come from bwip-js's Code 128 encoder, and text is drawn by bwip-js's FontLib (stb_truetype, which
 * rasterises anti-aliased glyphs). A label whose text is all ASCII draws with the OCR-B font inside bwip-js; any other
 * label draws with the PDF's Noto fonts (lib/labels/fonts.ts), each character with the first font that has its glyph,
 * so "Zoë 株式会社 Ελλάδα Москва" prints as typed. The Noto files are read once per process, the fallbacks only when
 * a label needs them, and the layout measures with the advances it draws.
 */

const BASELINE = 0.8;
const OCR_B = bwipjs.FontLib.lookup("OCR-B");

class GrayImage {
  readonly data: Uint8Array;
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.data = new Uint8Array(width * height).fill(255);
  }

  fillRect(x: number, y: number, w: number, h: number): void {
    const x0 = Math.max(0, Math.round(x));
    const x1 = Math.min(this.width, Math.round(x + w));
    const y0 = Math.max(0, Math.round(y));
    const y1 = Math.min(this.height, Math.round(y + h));
    for (let yy = y0; yy < y1; yy++) this.data.fill(0, yy * this.width + x0, yy * this.width + Math.max(x0, x1));
  }

  /** Darkens a pixel by `alpha` (0–255) of black ink, clipped to the image and to [x0, x1). */
  ink(x: number, y: number, alpha: number, x0: number, x1: number): void {
    if (x < x0 || x >= x1 || x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const i = y * this.width + x;
    this.data[i] = Math.round(((this.data[i] ?? 255) * (255 - alpha)) / 255);
  }
}

type Glyph = ReturnType<typeof bwipjs.FontLib.getglyph> & { glyph?: number };

/** Draws the characters of a line: OCR-B for an all-ASCII label, the Noto fonts for any other. */
interface PngFont {
  glyphs(text: string, size: number, bold: boolean): Glyph[];
  /** Whether the font's bold is its own (Noto Sans Bold) rather than a second pass a pixel to the right. */
  realBold(ch: Glyph): boolean;
}

const OCR_B_FONT: PngFont = {
  glyphs: (text, size) =>
    Array.from(toPrintableAscii(text), (c) => bwipjs.FontLib.getglyph(OCR_B, c.charCodeAt(0), size, size)),
  realBold: () => false,
};

/** The Noto fonts' FontLib ids by file, each loaded the first time a label needs it. */
const notoIds = new Map<string, number>();
function notoId(file: string): number {
  let id = notoIds.get(file);
  if (id === undefined) {
    const name = `LABEL-${file}`;
    bwipjs.FontLib.loadFont(name, fontBytes(file));
    id = bwipjs.FontLib.lookup(name);
    notoIds.set(file, id);
  }
  return id;
}

const lacks = (g: Glyph): boolean => g.glyph === 0 || (g.advance === 0 && g.width === 0);

/** Noto glyphs with the bold weight's own font, and whether a glyph came from it. */
const boldGlyphs = new WeakSet<Glyph>();
const NOTO_FONT: PngFont = {
  glyphs(text, size, bold) {
    const primary = notoId(bold ? FILES.bold : FILES.regular);
    const out: Glyph[] = [];
    for (const ch of text.normalize("NFC")) {
      const cp = ch.codePointAt(0) ?? 0;
      // FontLib answers an empty glyph with no advance (glyph 0 or Noto's null glyph 1) for a character the font
      // lacks: try the next font, as the PDF does, and print "?" for a character none has.
      let g: Glyph = bwipjs.FontLib.getglyph(primary, cp, size, size);
      if (lacks(g) && cp > 0x20) {
        g = bwipjs.FontLib.getglyph(notoId(FILES.cjk), cp, size, size);
        if (lacks(g)) g = bwipjs.FontLib.getglyph(notoId(FILES.hangul), cp, size, size);
        if (lacks(g)) g = bwipjs.FontLib.getglyph(primary, 0x3f, size, size);
        else if (bold) boldGlyphs.add(g);
      } else if (bold) {
        boldGlyphs.add(g);
      }
      out.push(g);
    }
    return out;
  },
  realBold: (g) => boldGlyphs.has(g),
};

// A printable-ASCII label keeps OCR-B (and skips reading the Noto files).
const fontFor = (content: LabelContent): PngFont =>
  /^[\x20-\x7e]*$/.test(JSON.stringify(content)) ? OCR_B_FONT : NOTO_FONT;

const boldShiftOf = (size: number, bold: boolean): number => (bold ? Math.max(1, Math.round(size / 24)) : 0);

function measureWith(font: PngFont): MeasureText {
  return (text, size, bold) => {
    const glyphs = font.glyphs(text, size, bold);
    // A glyph drawn twice, a pixel apart, for its bold weight inks that much past its advance.
    const shift = glyphs.some((g) => !font.realBold(g)) ? boldShiftOf(size, bold) : 0;
    return glyphs.reduce((sum, g) => sum + g.advance, 0) + shift;
  };
}

function drawText(img: GrayImage, el: TextElement, font: PngFont): void {
  const glyphs = font.glyphs(el.text, el.size, el.bold);
  const width = measureWith(font)(el.text, el.size, el.bold);
  let penX = el.align === "center" ? el.x + Math.max(0, Math.floor((el.width - width) / 2)) : el.x;
  const baseline = Math.round(el.y + el.size * BASELINE);
  const clipX1 = el.x + el.width;
  for (const g of glyphs) {
    const boldShift = font.realBold(g) ? 0 : boldShiftOf(el.size, el.bold);
    for (let j = 0; j < g.height; j++) {
      for (let i = 0; i < g.width; i++) {
        const a = g.bytes[g.offset + j * g.width + i] ?? 0;
        if (!a) continue;
        const x = penX + g.left + i;
        const y = baseline - g.top + j;
        // A second pass a pixel to the right is how the font gets a bold weight.
        for (let s = 0; s <= boldShift; s++) img.ink(x + s, y, a, el.x, clipX1);
      }
    }
    penX += g.advance;
  }
}

function drawBarcode(img: GrayImage, el: BarcodeElement): void {
  let x = el.x;
  el.pattern.widths.forEach((w, i) => {
    // Widths alternate bar, space, bar, … starting with a bar.
    if (i % 2 === 0) img.fillRect(x, el.y, w * el.moduleWidth, el.height);
    x += w * el.moduleWidth;
  });
}

/** Adds a pHYs chunk (pixels per metre) right after IHDR so viewers and printers know the image is 203 dpi. */
export function withResolution(png: Uint8Array, dpi: number): Uint8Array {
  const ppm = Math.round(dpi / 0.0254);
  const chunk = new Uint8Array(4 + 4 + 9 + 4);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, 9);
  chunk.set([0x70, 0x48, 0x59, 0x73], 4); // "pHYs"
  view.setUint32(8, ppm);
  view.setUint32(12, ppm);
  chunk[16] = 1; // unit: metre
  view.setUint32(17, crc32(chunk.subarray(4, 17)) >>> 0);
  // Signature (8) + IHDR chunk (4 length + 4 type + 13 data + 4 crc = 25).
  const cut = 8 + 25;
  const out = new Uint8Array(png.length + chunk.length);
  out.set(png.subarray(0, cut), 0);
  out.set(chunk, cut);
  out.set(png.subarray(cut), cut + chunk.length);
  return out;
}

export function renderPngLabel(content: LabelContent): Uint8Array {
  const img = new GrayImage(LABEL_WIDTH_DOTS, LABEL_HEIGHT_DOTS);
  const font = fontFor(content);
  const elements = font === OCR_B_FONT ? layoutLabel(content) : layoutLabel(content, measureWith(font));
  for (const el of elements) {
    if (el.kind === "text") drawText(img, el, font);
    else if (el.kind === "box") img.fillRect(el.x, el.y, el.width, el.height);
    else drawBarcode(img, el);
  }
  const png = new PNG({ width: img.width, height: img.height, colorType: 0, inputColorType: 0, inputHasAlpha: false });
  png.data = Buffer.from(img.data.buffer, img.data.byteOffset, img.data.byteLength);
  const encoded = PNG.sync.write(png, { colorType: 0, inputColorType: 0, inputHasAlpha: false, deflateLevel: 9 });
  return withResolution(new Uint8Array(encoded), LABEL_DPI);
}
