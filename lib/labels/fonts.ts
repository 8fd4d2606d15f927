import { readFileSync } from "node:fs";
import { join } from "node:path";
// Imported with the module, not on first use: fontkit's bundled \`process\` shim captures setTimeout when it is
// evaluated, and a first load while a test fakes the timers (the lost-purchase tests) leaves fontkit waiting on them.
import fontkit, { type Font } from "@pdf-lib/fontkit";
import type { Color, PDFDocument, PDFFont, PDFName, PDFPage } from "pdf-lib";
import { pdfLib } from "@/lib/labels/pdf-lib";

/**
 * The fonts of the PDFs we draw ourselves (labels, invoices, packing lists): Noto Sans for Latin, Greek and Cyrillic,
 * then Noto Sans SC for Chinese ideographs and Japanese kana, then Noto Sans KR for Hangul (assets/fonts/README.md).
 * Each character is drawn with the first font that has it, so "Zoë Åström 株式会社" prints as typed. A document
 * embeds only the fonts its text needs, each subset to the glyphs used (a label stays a few kB heavier, not MBs).
 *
 * The files are read and parsed once per process (about 0.1 s per CJK font, and only when a text needs one); every
 * document then shares the parsed fonts.
 */

// Read at run time from the project's root, where `next start`, the CLI, the benches and the tests all run (the
// build is not a standalone bundle, so the files stay where the repository has them).
const FONT_DIR = join(process.cwd(), "assets", "fonts");

/**
 * The files, and the order a character looks for a font with its glyph in (regular or bold, then cjk, then hangul):
 * the rule both renderers follow (lib/labels/png.ts draws the same files with bwip-js's rasteriser).
 */
export const FILES = {
  regular: "NotoSans-Regular.ttf",
  bold: "NotoSans-Bold.ttf",
  cjk: "NotoSansSC-Regular.ttf",
  hangul: "NotoSansKR-Regular.ttf",
} as const;

const fileBytes = new Map<string, Uint8Array>();
/**
 * A font file's bytes, read once per process and shared by both renderers (lib/labels/png.ts). Read at once rather
 * than through the file system's promise API: a few MB, once.
 */
export function fontBytes(file: string): Uint8Array {
  let bytes = fileBytes.get(file);
  if (!bytes) {
    const read = readFileSync(join(FONT_DIR, file));
    bytes = new Uint8Array(read.buffer, read.byteOffset, read.byteLength);
    fileBytes.set(file, bytes);
  }
  return bytes;
}

interface LoadedFont {
  bytes: Uint8Array;
  font: Font;
  chars: ReadonlySet<number>;
  /** Advance widths by code point, in font units, filled as characters are measured. */
  advances: Map<number, number>;
}

const loaded = new Map<string, Promise<LoadedFont>>();

function loadFont(file: string): Promise<LoadedFont> {
  let pending = loaded.get(file);
  if (!pending) {
    pending = (async () => {
      const data = fontBytes(file);
      const font = fontkit.create(data);
      padSubsetGlyphs(font);
      mapWithoutShaping(font);
      return { bytes: data, font, chars: new Set(font.characterSet), advances: new Map() };
    })();
    // A failed read is not remembered: the next document tries again.
    pending.catch(() => loaded.delete(file));
    loaded.set(file, pending);
  }
  return pending;
}

interface TtfSubset {
  glyf: Uint8Array[];
  offset: number;
  _addGlyph(gid: number): number;
}

/**
 * @pdf-lib/fontkit copies each glyph's bytes into the subset as they are, then writes the short `loca` format (offsets
 * halved) whenever the subset is small: a glyph of odd length, which the Noto fonts have (their own `loca` is long),
 * shifts every later glyph by half a byte and most letters come out blank. Padding each glyph to an even length, as
 * the format requires, keeps the offsets exact. (fontkit's later releases pad the same way.)
 */
function padSubsetGlyphs(font: Font): void {
  const createSubset = font.createSubset.bind(font);
  font.createSubset = () => {
    const subset = createSubset() as unknown as TtfSubset;
    const addGlyph = subset._addGlyph.bind(subset);
    subset._addGlyph = (gid) => {
      const index = addGlyph(gid);
      const bytes = subset.glyf[index]!;
      if (bytes.length % 2 === 1) {
        // The bundled Buffer class the encoder accepts, not a plain Uint8Array.
        const padded = (bytes.constructor as unknown as { alloc(size: number): Uint8Array }).alloc(bytes.length + 1);
        padded.set(bytes);
        subset.glyf[index] = padded;
        subset.offset += 1;
      }
      return index;
    };
    return subset as unknown as ReturnType<Font["createSubset"]>;
  };
}

/**
 * pdf-lib asks the font for the glyphs of each string it draws through `layout`, fontkit's whole OpenType shaping:
 * substitutions, then positions pdf-lib throws away. It was a third of a label's time. Our widths already add up one
 * advance per character (see `advance` below), so the glyphs are mapped the same way, one per character through the
 * font's cmap (variation selectors kept): what is drawn is what was measured, and the PDF's text still reads back
 * character for character. What this gives up is ligatures and mark positioning, which these fonts need for none of
 * the scripts they cover once the text is NFC (a label's lines are normalized before they are drawn), Devanagari
 * excepted: it prints unshaped, and the purchase warns (NEEDS_SHAPING above).
 */
function mapWithoutShaping(font: Font): void {
  font.layout = ((text: string) => ({ glyphs: font.glyphsForString(text) })) as unknown as Font["layout"];
}

/**
 * Devanagari: Noto Sans has its letters, but they are written with shaping the labels do not do (a vowel sign such as
 * the i-matra drawn before its consonant, conjuncts): drawn one glyph per character, a Hindi name comes out garbled.
 * (@pdf-lib/fontkit's own Indic shaper cannot run here: it needs a regenerator runtime the bundle lacks.)
 */
const NEEDS_SHAPING = /[\u0900-\u097f\ua8e0-\ua8ff]/u;

/**
 * Whether the PDF and PNG labels draw `text` other than as written: a character none of the fonts has (printed as "?")
 * or one of a script they draw unshaped. The purchase warns about such a field (lib/carriers/sandbox/label.ts).
 */
export async function drawnOtherThanWritten(text: string): Promise<boolean> {
  const nfc = text.normalize("NFC");
  if (NEEDS_SHAPING.test(nfc)) return true;
  const lacking = lackedBy(await loadFont(FILES.regular), nfc);
  if (lacking.length === 0) return false;
  const fallbacks = await Promise.all([loadFont(FILES.cjk), loadFont(FILES.hangul)]);
  return lacking.some((cp) => !fallbacks.some((f) => f.chars.has(cp)));
}

/** What we print for a character none of the fonts has (an emoji, a rare script). */
const MISSING = "?";
// Fallback fonts come in one weight; their bold is a thin stroke around the filled glyph.
const SYNTHETIC_BOLD_STROKE = 0.03;

interface Face {
  loaded: LoadedFont;
  pdf: PDFFont;
}

interface Run {
  face: Face;
  text: string;
  syntheticBold: boolean;
}

export interface PdfText {
  /** Width in points of `text` drawn at `size` points. */
  widthOf(text: string, size: number, bold?: boolean): number;
  /** Draws one line of text with its left end of baseline at (x, y) in points. */
  draw(page: PDFPage, text: string, opts: { x: number; y: number; size: number; bold?: boolean; color?: Color }): void;
}

const codePoints = (text: string): number[] => Array.from(text, (c) => c.codePointAt(0) ?? 0);

/** The characters of `text` (NFC) past the space that `font` lacks: what a fallback font must draw, or "?". */
const lackedBy = (font: LoadedFont, text: string): number[] =>
  codePoints(text).filter((cp) => cp > 0x20 && !font.chars.has(cp));

/**
 * The fonts for a document whose text is all in `sample` (any string holding it, e.g. the content as JSON): the Latin
 * regular and bold always, a fallback only when some character of the sample needs it.
 */
export async function pdfText(doc: PDFDocument, sample: string): Promise<PdfText> {
  const [regular, bold] = await Promise.all([loadFont(FILES.regular), loadFont(FILES.bold)]);
  const lacking = lackedBy(regular, sample.normalize("NFC"));
  const fallbacks: LoadedFont[] = [];
  if (lacking.length > 0) {
    const cjk = await loadFont(FILES.cjk);
    fallbacks.push(cjk);
    if (lacking.some((cp) => !cjk.chars.has(cp))) fallbacks.push(await loadFont(FILES.hangul));
  }

  const all = [regular, bold, ...fallbacks];
  // pdf-lib parses a font's bytes on every embedFont; hand it the font parsed once for the process instead.
  const parsed: Parameters<PDFDocument["registerFontkit"]>[0] = {
    create: (bytes) => {
      const known = all.find((f) => f.bytes === bytes);
      if (!known) throw new Error("Only the label fonts are embedded through pdfText");
      // The same library's font object; pdf-lib's own typing of it is a copy of @pdf-lib/fontkit's.
      return known.font as unknown as ReturnType<typeof parsed.create>;
    },
  };
  doc.registerFontkit(parsed);
  const embed = async (f: LoadedFont): Promise<Face> => ({
    loaded: f,
    pdf: await doc.embedFont(f.bytes, { subset: true }),
  });
  const regularFace = await embed(regular);
  const boldFace = await embed(bold);
  const fallbackFaces = await Promise.all(fallbacks.map(embed));
  const lib = await pdfLib();

  const runs = (text: string, isBold: boolean): Run[] => {
    const primary = isBold ? boldFace : regularFace;
    const out: Run[] = [];
    for (const ch of text.normalize("NFC")) {
      const cp = ch.codePointAt(0) ?? 0;
      let face = primary;
      let shown = ch;
      if (!primary.loaded.chars.has(cp)) {
        const fallback = fallbackFaces.find((f) => f.loaded.chars.has(cp));
        if (fallback) face = fallback;
        else shown = MISSING;
      }
      const last = out.at(-1);
      if (last && last.face === face) last.text += shown;
      else out.push({ face, text: shown, syntheticBold: isBold && face !== primary });
    }
    return out;
  };

  // Widths add up glyph advances per character (pdf-lib draws no kerning). Shaping a whole string for each of the many
  // measurements fitting takes was most of a label's time; a ligature (fi) is as wide as its letters in these fonts.
  const advance = (run: Run, size: number): number => {
    const { font, advances } = run.face.loaded;
    let units = 0;
    for (const ch of run.text) {
      const cp = ch.codePointAt(0) ?? 0;
      let a = advances.get(cp);
      if (a === undefined) advances.set(cp, (a = font.glyphForCodePoint(cp).advanceWidth));
      units += a;
    }
    return (units * size) / font.unitsPerEm;
  };

  const fontKeys = new WeakMap<PDFPage, Map<PDFFont, PDFName>>();
  const keyOf = (page: PDFPage, font: PDFFont): PDFName => {
    let keys = fontKeys.get(page);
    if (!keys) fontKeys.set(page, (keys = new Map()));
    let key = keys.get(font);
    if (!key) keys.set(font, (key = page.node.newFontDictionary(font.name, font.ref)));
    return key;
  };

  return {
    widthOf(text, size, isBold = false) {
      return runs(text, isBold).reduce((sum, run) => sum + advance(run, size), 0);
    },
    draw(page, text, { x, y, size, bold: isBold = false, color = lib.rgb(0, 0, 0) }) {
      const ops = [lib.pushGraphicsState(), lib.beginText(), lib.setFillingColor(color), lib.moveText(x, y)];
      for (const run of runs(text, isBold)) {
        ops.push(lib.setFontAndSize(keyOf(page, run.face.pdf), size));
        if (run.syntheticBold) {
          ops.push(
            lib.setStrokingColor(color),
            lib.setLineWidth(size * SYNTHETIC_BOLD_STROKE),
            lib.setTextRenderingMode(lib.TextRenderingMode.FillAndOutline),
          );
        }
        ops.push(lib.showText(run.face.pdf.encodeText(run.text)));
        if (run.syntheticBold) ops.push(lib.setTextRenderingMode(lib.TextRenderingMode.Fill));
      }
      ops.push(lib.endText(), lib.popGraphicsState());
      page.pushOperators(...ops);
    },
  };
}
