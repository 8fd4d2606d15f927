import { PDFDocument, PDFRawStream, decodePDFRawStream } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { isPdf } from "@/lib/labels/check";
import { PDF_PAGE_HEIGHT, PDF_PAGE_WIDTH, renderPdfLabel } from "@/lib/labels/pdf";
import { layoutLabel } from "@/lib/labels/layout";
import { printsAtActualSize } from "@/lib/labels/print-ready";
import { sampleAddress, sampleLabelContent } from "@/test/label-samples";

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

const hex = (s: string): string => Buffer.from(s, "latin1").toString("hex").toUpperCase();

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
    const ops = await pageOperators(bytes);
    for (const text of [
      "SBX126230400000900001705",
      "John Smith",
      "350 Fifth Avenue",
      "New York, NY 10118",
      "Jane Doe",
      "Sandbox Ground",
    ]) {
      expect(ops).toContain(`<${hex(text)}> Tj`);
    }
    expect(ops).not.toMatch(/\/Image-\d+ Do/);
    const layout = layoutLabel(sampleLabelContent());
    const barcode = layout.find((e) => e.kind === "barcode")!;
    const bars = barcode.kind === "barcode" ? barcode.pattern.widths.filter((_, i) => i % 2 === 0).length : 0;
    const boxes = layout.filter((e) => e.kind === "box").length;
    // pdf-lib fills each rectangle as a closed path ending in a lone `f` operator.
    expect(ops.match(/^f$/gm)).toHaveLength(bars + boxes);
  });

  it("survives text outside the standard fonts' character set", async () => {
    const content = sampleLabelContent({
      recipient: sampleAddress({ person_name: "王小明 Ödön Łukasz", city: "Zürich", country_code: "CH" }),
      reference: "emoji 📦",
    });
    const bytes = await renderPdfLabel(content);
    const ops = await pageOperators(bytes);
    // Ö and ü exist in WinAnsi; Ł is folded to L; CJK and emoji become "?".
    expect(ops).toContain(`<${hex("??? \u00d6d\u00f6n Lukasz")}> Tj`);
    expect(ops).toContain(`<${hex("Mountain View, CA 94043")}> Tj`);
  });

  it("is deterministic for the same content", async () => {
    const a = await renderPdfLabel(sampleLabelContent());
    const b = await renderPdfLabel(sampleLabelContent());
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });
});
