import { PDFDocument } from "pdf-lib";
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { LABEL_TYPES } from "@/lib/carriers/types";
import { unwrapBase64, wrapBase64 } from "@/lib/labels/base64";
import { detectLabelType } from "@/lib/labels/check";
import { renderLabel } from "@/lib/labels/render";
import { sampleLabelContent } from "@/test/label-samples";

describe("renderLabel", () => {
  it.each(LABEL_TYPES)("renders %s that is detected as that type and survives base64 wrapping", async (type) => {
    const bytes = await renderLabel(sampleLabelContent(), type);
    expect(detectLabelType(bytes)).toBe(type);
    const back = unwrapBase64(wrapBase64(bytes));
    expect(back).toEqual(bytes);
    if (type === "PDF") expect((await PDFDocument.load(back)).getPageCount()).toBe(1);
    if (type === "PNG") expect(PNG.sync.read(Buffer.from(back)).width).toBe(812);
    if (type === "ZPL") expect(new TextDecoder().decode(back)).toMatch(/^\^XA[\s\S]*\^XZ$/);
  });
});
