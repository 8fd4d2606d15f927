import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { code128Pattern } from "@/lib/labels/barcode";
import { isPng } from "@/lib/labels/check";
import { layoutLabel, type BarcodeElement } from "@/lib/labels/layout";
import { renderPngLabel } from "@/lib/labels/png";
import { sampleAddress, sampleLabelContent } from "@/test/label-samples";

/** Run lengths of dark/light pixels along one row, from the first dark pixel to the last. */
function runs(png: PNG, y: number, x0: number, x1: number): number[] {
  const dark = (x: number): boolean => (png.data[(y * png.width + x) * 4] ?? 255) < 128;
  let start = x0;
  while (start < x1 && !dark(start)) start++;
  let end = x1 - 1;
  while (end > start && !dark(end)) end--;
  const out: number[] = [];
  let current = dark(start);
  let length = 0;
  for (let x = start; x <= end; x++) {
    if (dark(x) === current) length++;
    else {
      out.push(length);
      current = dark(x);
      length = 1;
    }
  }
  out.push(length);
  return out;
}

describe("renderPngLabel", () => {
  it("is an 812x1218 PNG (4x6 in at 203 dpi) that pngjs decodes", () => {
    const bytes = renderPngLabel(sampleLabelContent());
    expect(isPng(bytes)).toBe(true);
    const png = PNG.sync.read(Buffer.from(bytes));
    expect([png.width, png.height]).toEqual([812, 1218]);
    // It declares its resolution: pHYs with 7992 pixels per metre (= 203 dpi).
    const phys = Buffer.from(bytes).indexOf("pHYs");
    expect(phys).toBeGreaterThan(0);
    expect(Buffer.from(bytes).readUInt32BE(phys + 4)).toBe(7992);
  });

  it("draws a Code 128 symbol whose bars match the encoder's pattern exactly", () => {
    const content = sampleLabelContent();
    const png = PNG.sync.read(Buffer.from(renderPngLabel(content)));
    const bar = layoutLabel(content).find((e): e is BarcodeElement => e.kind === "barcode")!;
    const expected = code128Pattern(content.barcodeValue).widths.map((w) => w * bar.moduleWidth);
    const midRow = bar.y + Math.floor(bar.height / 2);
    expect(runs(png, midRow, 0, png.width)).toEqual(expected);
    // Quiet zones either side are blank.
    const row = (x: number): number => png.data[(midRow * png.width + x) * 4]!;
    for (let x = bar.x - 10 * bar.moduleWidth; x < bar.x; x++) expect(row(x)).toBe(255);
  });

  it("draws every script the PDF prints with the Noto fonts, and '?' only for a character no font has", () => {
    const render = (name: string): PNG =>
      PNG.sync.read(
        Buffer.from(renderPngLabel(sampleLabelContent({ recipient: sampleAddress({ person_name: name }) }))),
      );
    // The recipient's name line: 36-dot bold text at y 392.
    const nameLine = (png: PNG): number[] => {
      const out: number[] = [];
      for (let y = 392; y < 436; y++) for (let x = 24; x < 788; x++) out.push(png.data[(y * png.width + x) * 4]!);
      return out;
    };
    const inked = (px: number[]): number => px.filter((v) => v < 128).length;

    const text = "Zoë Åström 株式会社 Ελλάδα Москва 서울";
    const drawn = nameLine(render(text));
    // The same label with each character outside Latin-1 as "?" (what the OCR-B rendering printed).
    const asQuestionMarks = nameLine(render(text.replace(/[^\u0000-\u00ff]/gu, "?")));
    expect(drawn).not.toEqual(asQuestionMarks);
    // Ideographs and Hangul are far denser strokes than question marks.
    expect(inked(drawn)).toBeGreaterThan(inked(asQuestionMarks) * 1.3);
    // Deterministic: the same text renders to the same pixels.
    expect(nameLine(render(text))).toEqual(drawn);
    // A character none of the fonts has prints as "?", as in the PDF.
    expect(nameLine(render("Zoë \u{1F600}"))).toEqual(nameLine(render("Zoë ?")));
    // Only the ink differs from a blank line: the name is there, not a row of empty boxes.
    expect(inked(drawn)).toBeGreaterThan(2000);
  });

  it("keeps a plain-ASCII label on OCR-B, with ink in the address block", () => {
    const png = PNG.sync.read(Buffer.from(renderPngLabel(sampleLabelContent())));
    let dark = 0;
    for (let y = 392; y < 430; y++) for (let x = 24; x < 500; x++) if (png.data[(y * png.width + x) * 4]! < 128) dark++;
    expect(dark).toBeGreaterThan(500);
  });
});
