import fontkit from "@pdf-lib/fontkit";
import { PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef, decodePDFRawStream } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { isPdf } from "@/lib/labels/check";
import { PDF_PAGE_HEIGHT, PDF_PAGE_WIDTH, renderPdfLabel } from "@/lib/labels/pdf";
import { fitLabel, layoutLabel } from "@/lib/labels/layout";
import { printsAtActualSize } from "@/lib/labels/print-ready";
import { sampleAddress, sampleFullUkAddress, sampleLabelContent } from "@/test/label-samples";
import { pdfLines } from "@/test/pdf-text";

/** The page's drawing operators as text (pdf-lib writes text as hex strings in Tj operators). */
async function pageOperators(bytes: Uint8Array): Promise<string> {
  const doc = await PDFDocument.load(bytes);
  const contents = doc.getPages()[0]!.node.Contents();
  const streams = contents && "asArray" in contents ? contents.asArray() : [contents];
  let out = "";
  for (const ref of streams) {
    const stream = doc.context.lookup(ref as never);
    if (stream instanceof PDFRawStream) out += new TextDecoder("latin1").decode(decodePDFRawStream(stream).decode());
  }
  return out;
}

/** The font programs embedded in the PDF (FontFile2), each parsed. */
async function embeddedFonts(bytes: Uint8Array) {
  const doc = await PDFDocument.load(bytes);
  const fonts = [];
  for (const [, obj] of doc.context.enumerateIndirectObjects()) {
    if (!(obj instanceof PDFDict) || obj.get(PDFName.of("Type")) !== PDFName.of("FontDescriptor")) continue;
    const file = obj.get(PDFName.of("FontFile2"));
    const stream = file instanceof PDFRef ? doc.context.lookup(file) : file;
    if (stream instanceof PDFRawStream) fonts.push(fontkit.create(decodePDFRawStream(stream).decode()));
  }
  return fonts;
}

const SCRIPTS = "Zoë Åström 株式会社 Ελλάδα Москва";

describe("renderPdfLabel", () => {
  it("produces a one-page 4x6 inch PDF that pdf-lib can load", async () => {
    const bytes = await renderPdfLabel(sampleLabelContent());
    expect(isPdf(bytes)).toBe(true);
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBe(1);
    const { width, height } = doc.getPages()[0]!.getSize();
    expect([width, height]).toEqual([PDF_PAGE_WIDTH, PDF_PAGE_HEIGHT]);
    expect([width, height]).toEqual([288, 432]);
  });

  it("asks viewers to print it at actual size (PrintScaling None), never fitted to the printable area", async () => {
    const doc = await PDFDocument.load(await renderPdfLabel(sampleLabelContent()));
    expect(await printsAtActualSize(doc)).toBe(true);
  });

  it("draws addresses, service and tracking number as text and the barcode as vector bars", async () => {
    const bytes = await renderPdfLabel(sampleLabelContent());
    const lines = await pdfLines(bytes);
    for (const text of [
      "SBX126230400000900001705",
      "John Smith",
      "350 Fifth Avenue",
      "New York, NY 10118",
      "Jane Doe",
      "Sandbox Ground",
      "ORDER-1042",
    ]) {
      expect(lines).toContain(text);
    }
    const ops = await pageOperators(bytes);
    expect(ops).not.toMatch(/\/Image-\d+ Do/);
    const layout = layoutLabel(sampleLabelContent());
    const barcode = layout.find((e) => e.kind === "barcode")!;
    const bars = barcode.kind === "barcode" ? barcode.pattern.widths.filter((_, i) => i % 2 === 0).length : 0;
    const boxes = layout.filter((e) => e.kind === "box").length;
    // Each bar is a rectangle (`re`) of one path, filled once; pdf-lib draws each box as a closed path and a fill.
    expect(ops.match(/ re$/gm)).toHaveLength(bars);
    expect(ops.match(/^f$/gm)).toHaveLength(boxes + 1);
  });

  it("prints Latin with accents, Chinese, Japanese, Korean, Greek and Cyrillic as given", async () => {
    const content = sampleLabelContent({
      recipient: sampleAddress({ person_name: SCRIPTS, company_name: "서울 とうきょう Łódź Ősz", country_code: "JP" }),
      shipper: sampleAddress({ person_name: "Ödön Łukasz" }),
      reference: "emoji 📦",
    });
    const lines = await pdfLines(await renderPdfLabel(content));
    expect(lines).toContain(SCRIPTS);
    expect(lines).toContain("서울 とうきょう Łódź Ősz");
    expect(lines).toContain("Ödön Łukasz");
    // No font has the emoji: a visible "?" rather than nothing.
    expect(lines).toContain("emoji ?");
  });

  it("embeds each font as a subset whose every glyph has its outline", async () => {
    const bytes = await renderPdfLabel(
      sampleLabelContent({ recipient: sampleAddress({ person_name: SCRIPTS, company_name: "서울" }) }),
    );
    const fonts = await embeddedFonts(bytes);
    // Latin regular and bold, the CJK font and the Hangul one, each cut down to the glyphs drawn.
    expect(fonts).toHaveLength(4);
    for (const font of fonts) {
      expect(font.numGlyphs).toBeLessThan(80);
      const blank = Array.from({ length: font.numGlyphs - 1 }, (_, i) => font.getGlyph(i + 1)).filter(
        (g) => g.path.toSVG() === "",
      );
      // The space is the one glyph without contours; any other blank glyph is a broken subset.
      expect(blank.length).toBeLessThanOrEqual(1);
    }
    expect(bytes.length).toBeLessThan(40_000);
  });

  it("prints a 60-character street and a 30-character reference whole", async () => {
    const street = "1234 Exceptionally Long Boulevard Northwest, Building C Unit";
    const reference = "ORDER-2024-000123456789-ABCDEF";
    expect([street.length, reference.length]).toEqual([60, 30]);
    const content = sampleLabelContent({
      shipper: sampleAddress({ address_line1: street }),
      recipient: sampleAddress({ address_line1: street, address_line2: street.toUpperCase() }),
      reference,
    });
    const lines = await pdfLines(await renderPdfLabel(content));
    expect(lines.filter((l) => l === street)).toHaveLength(2);
    expect(lines).toContain(street.toUpperCase());
    expect(lines).toContain(reference);
    expect(lines.some((l) => l.endsWith("..."))).toBe(false);
    // The bound every format is laid out with (the PNG's and ZPL's) fits them whole too.
    expect(fitLabel(content).cut).toEqual([]);
  });

  it("prints every line of a full address: a UK recipient's postcode and country are never left off", async () => {
    const uk = sampleFullUkAddress();
    const content = sampleLabelContent({ shipper: uk, recipient: uk });
    const lines = await pdfLines(await renderPdfLabel(content));
    expect(lines.filter((l) => l === "SW1A 2AA")).toHaveLength(2);
    expect(lines.filter((l) => l === "GB")).toHaveLength(2);
    expect(lines.filter((l) => l === "LONDON")).toHaveLength(2);
    // Nothing is drawn below the rule that closes the block (at 664 dots, 664 * 72 / 203 pt from the top).
    const layout = layoutLabel(content);
    const recipientTexts = layout.filter((e) => e.kind === "text" && e.y >= 392 && e.y < 664);
    for (const el of recipientTexts) if (el.kind === "text") expect(el.y + el.size).toBeLessThanOrEqual(664);
    expect(fitLabel(content).cut).toEqual([]);
  });

  it("without a reference prints no REF box at all", async () => {
    const lines = await pdfLines(await renderPdfLabel(sampleLabelContent({ reference: null })));
    expect(lines).not.toContain("REF");
    expect(lines.some((l) => l.includes("ORDER"))).toBe(false);
  });

  it("is deterministic for the same content", async () => {
    const a = await renderPdfLabel(sampleLabelContent());
    const b = await renderPdfLabel(sampleLabelContent());
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });
});
