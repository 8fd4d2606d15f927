import { PDFDocument, degrees } from "pdf-lib";
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { renderPdfLabel } from "@/lib/labels/pdf";
import { renderPngLabel } from "@/lib/labels/png";
import { printsAtActualSize } from "@/lib/labels/print-ready";
import { layOnSheet, SHEET_SIZES, SheetLayoutError } from "@/lib/labels/sheet";
import { renderZplLabel } from "@/lib/labels/zpl";
import { sampleAddress, sampleLabelContent } from "@/test/label-samples";
import { pageOperators, placements } from "@/test/pdf-placements";
import { pdfLines } from "@/test/pdf-text";

/** A carrier-style PDF: pages of the given sizes, each with a rectangle so there is something to embed. */
async function pdfOfPages(...pages: { size: [number, number]; rotate?: number }[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (const { size, rotate } of pages) {
    const page = doc.addPage(size);
    page.drawRectangle({ x: 10, y: 10, width: 20, height: 20 });
    if (rotate) page.setRotation(degrees(rotate));
  }
  return doc.save();
}

function blankPng(width: number, height: number): Uint8Array {
  const png = new PNG({ width, height });
  png.data.fill(255);
  return new Uint8Array(PNG.sync.write(png));
}

const close = (n: number) => expect.closeTo(n, 2);

describe("layOnSheet", () => {
  it("lays our 4×6 PDF label turned onto the top half of a Letter sheet at 100%", async () => {
    const label = await renderPdfLabel(sampleLabelContent());
    const doc = await PDFDocument.load(await layOnSheet({ type: "PDF", content: label }, "letter"));
    expect(doc.getPageCount()).toBe(1);
    const page = doc.getPages()[0]!;
    expect(page.getSize()).toEqual({ width: 612, height: 792 });
    expect(await printsAtActualSize(doc)).toBe(true);
    // Turned, 432 × 288 pt, centred on the top half (612 × 396 pt from y = 396).
    expect(placements(doc, page)).toEqual([
      {
        kind: "form",
        scale: { x: close(1), y: close(1) },
        turn: 90,
        box: { left: close(90), bottom: close(450), right: close(522), top: close(738) },
      },
    ]);
  });

  it("keeps the label's embedded fonts: any script on the label reads the same on the sheet", async () => {
    const name = "Zoë Åström 株式会社 Ελλάδα Москва 서울";
    const label = await renderPdfLabel(sampleLabelContent({ recipient: sampleAddress({ person_name: name }) }));
    const sheet = await layOnSheet({ type: "PDF", content: label }, "a4");
    expect(await pdfLines(sheet)).toEqual(await pdfLines(label));
    expect(await pdfLines(sheet)).toContain(name);
  });

  it("fits half an A4 sheet too, and draws a dashed cut line across the middle", async () => {
    const label = await renderPdfLabel(sampleLabelContent());
    const doc = await PDFDocument.load(await layOnSheet({ type: "PDF", content: label }, "a4"));
    const page = doc.getPages()[0]!;
    const { width, height } = page.getSize();
    expect([width, height]).toEqual([SHEET_SIZES.a4.width, SHEET_SIZES.a4.height]);
    expect([width, height]).toEqual([595.28, 841.89]);
    const [placed] = placements(doc, page);
    expect(placed!.scale).toEqual({ x: close(1), y: close(1) });
    expect(placed!.box.right - placed!.box.left).toBeCloseTo(432, 2);
    expect(placed!.box.top - placed!.box.bottom).toBeCloseTo(288, 2);
    expect(placed!.box.bottom).toBeGreaterThan(height / 2);
    expect(placed!.box.top).toBeLessThan(height);
    const ops = pageOperators(doc, page);
    expect(ops).toMatch(/\[6 4\] 0 d/);
    expect(ops).toContain(`18 ${height / 2} m`);
  });

  it("lays a 203 dpi PNG label at its printed size, 4×6 in", async () => {
    const doc = await PDFDocument.load(
      await layOnSheet({ type: "PNG", content: renderPngLabel(sampleLabelContent()) }, "letter"),
    );
    const page = doc.getPages()[0]!;
    expect(placements(doc, page)).toEqual([
      {
        kind: "image",
        scale: { x: close(288), y: close(432) },
        turn: 90,
        box: { left: close(90), bottom: close(450), right: close(522), top: close(738) },
      },
    ]);
    expect(await printsAtActualSize(doc)).toBe(true);
  });

  it("takes a PNG without a stated resolution to be a 4×6 label", async () => {
    const doc = await PDFDocument.load(await layOnSheet({ type: "PNG", content: blankPng(1200, 1800) }, "letter"));
    const [placed] = placements(doc, doc.getPages()[0]!);
    expect(placed!.scale).toEqual({ x: close(288), y: close(432) });
  });

  it("puts each page of a multi-page label on its own sheet", async () => {
    const label = await pdfOfPages({ size: [288, 432] }, { size: [288, 432] });
    const doc = await PDFDocument.load(await layOnSheet({ type: "PDF", content: label }, "letter"));
    expect(doc.getPageCount()).toBe(2);
    for (const page of doc.getPages()) expect(placements(doc, page)).toHaveLength(1);
  });

  it("lays a 4×8 label (UPS's size) at 100%: it fits both sheets", async () => {
    const label = await pdfOfPages({ size: [288, 576] });
    for (const layout of ["letter", "a4"] as const) {
      const doc = await PDFDocument.load(await layOnSheet({ type: "PDF", content: label }, layout));
      const [placed] = placements(doc, doc.getPages()[0]!);
      expect(placed!.box.right - placed!.box.left).toBeCloseTo(576, 2);
      expect(placed!.box.left).toBeGreaterThanOrEqual(0);
    }
  });

  it("shows a page as the viewer would, /Rotate included, and does not turn a label already lying across", async () => {
    // Stored landscape with /Rotate 90: seen as a 4×6 portrait label.
    const rotated = await PDFDocument.load(
      await layOnSheet({ type: "PDF", content: await pdfOfPages({ size: [432, 288], rotate: 90 }) }, "letter"),
    );
    const [a] = placements(rotated, rotated.getPages()[0]!);
    expect(a!.turn).toBe(0);
    expect(a!.box).toEqual({ left: close(90), bottom: close(450), right: close(522), top: close(738) });

    const landscape = await PDFDocument.load(
      await layOnSheet({ type: "PDF", content: await pdfOfPages({ size: [432, 288] }) }, "letter"),
    );
    const [b] = placements(landscape, landscape.getPages()[0]!);
    expect(b!.turn).toBe(0);
    expect(b!.box).toEqual({ left: close(90), bottom: close(450), right: close(522), top: close(738) });
  });

  it("refuses what it cannot lay at 100%: ZPL, a label larger than half the sheet, a file it cannot read", async () => {
    const zpl = new TextEncoder().encode(renderZplLabel(sampleLabelContent()));
    await expect(layOnSheet({ type: "ZPL", content: zpl }, "letter")).rejects.toThrow(SheetLayoutError);
    await expect(layOnSheet({ type: "ZPL", content: zpl }, "a4")).rejects.toThrow(/ZPL.*A4 paper/);
    const letterPage = await pdfOfPages({ size: [612, 792] });
    await expect(layOnSheet({ type: "PDF", content: letterPage }, "letter")).rejects.toThrow(
      "The label is 8.5×11 in and does not fit half a Letter sheet",
    );
    const notPdf = new TextEncoder().encode("%PDF-1.7\nnot really\n%%EOF");
    await expect(layOnSheet({ type: "PDF", content: notPdf }, "letter")).rejects.toThrow(SheetLayoutError);
  });

  it("names the document", async () => {
    const label = await renderPdfLabel(sampleLabelContent());
    const bytes = await layOnSheet({ type: "PDF", content: label }, "letter", "Label SBX1 on Letter paper");
    expect((await PDFDocument.load(bytes, { updateMetadata: false })).getTitle()).toBe("Label SBX1 on Letter paper");
  });
});
