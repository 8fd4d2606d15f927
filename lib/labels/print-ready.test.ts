import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { renderPdfLabel } from "@/lib/labels/pdf";
import { printReady, printsAtActualSize } from "@/lib/labels/print-ready";
import { sampleLabelContent } from "@/test/label-samples";

/** A PDF as a carrier might send it: a 4×6 page without any viewer preferences. */
async function carrierPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setProducer("Carrier label engine");
  doc.addPage([288, 432]).drawText("1Z999AA10123456784", { x: 20, y: 200, size: 14 });
  return doc.save();
}

describe("printReady", () => {
  it("flags a carrier's PDF to print at actual size and keeps its pages and metadata", async () => {
    const original = await carrierPdf();
    expect(await printsAtActualSize(await PDFDocument.load(original))).toBe(false);
    const ready = await PDFDocument.load(await printReady(original), { updateMetadata: false });
    expect(await printsAtActualSize(ready)).toBe(true);
    expect(ready.getPageCount()).toBe(1);
    expect(ready.getPages()[0]!.getSize()).toEqual({ width: 288, height: 432 });
    expect(ready.getProducer()).toBe("Carrier label engine");
  });

  it("hands back our own labels byte for byte: they are flagged when drawn", async () => {
    const ours = await renderPdfLabel(sampleLabelContent());
    expect(await printsAtActualSize(await PDFDocument.load(ours))).toBe(true);
    expect(await printReady(ours)).toBe(ours);
  });

  it("serves a PDF it cannot rewrite as it is rather than failing", async () => {
    const damaged = new TextEncoder().encode("%PDF-1.4\ngarbage\n%%EOF");
    expect(await printReady(damaged)).toBe(damaged);
  });
});
