import { describe, expect, it } from "vitest";
import { detectLabelType, isPdf, isPng, isZpl } from "@/lib/labels/check";

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

describe("label format checks", () => {
  it("recognises a PDF by header and EOF marker", () => {
    const pdf = bytes("%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n%%EOF\n");
    expect(isPdf(pdf)).toBe(true);
    expect(isPdf(bytes("%PDF-1.7\n1 0 obj <<>> endobj no end"))).toBe(false);
    expect(isPdf(bytes("hello %PDF-1.7 %%EOF padding padding"))).toBe(false);
    expect(detectLabelType(pdf)).toBe("PDF");
  });

  it("recognises a PNG by its signature", () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    expect(isPng(png)).toBe(true);
    expect(isPng(png.subarray(0, 7))).toBe(false);
    expect(detectLabelType(png)).toBe("PNG");
  });

  it("recognises ZPL by ^XA … ^XZ, ignoring surrounding whitespace and a BOM", () => {
    expect(isZpl("  ^XA^FO10,10^FDhi^FS^XZ\n")).toBe(true);
    expect(isZpl("^XA^FDhi^FS")).toBe(false);
    expect(isZpl("^XZ")).toBe(false);
    expect(detectLabelType(bytes("\uFEFF^XA\n^XZ\n"))).toBe("ZPL");
  });

  it("answers null for anything else", () => {
    expect(detectLabelType(bytes("GIF89a"))).toBeNull();
    expect(detectLabelType(new Uint8Array())).toBeNull();
  });
});
