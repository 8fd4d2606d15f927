import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { renderPngLabel } from "@/lib/labels/png";
import { pngPhysicalSize } from "@/lib/labels/png-size";
import { sampleLabelContent } from "@/test/label-samples";

function blankPng(width: number, height: number): Uint8Array {
  const png = new PNG({ width, height });
  return new Uint8Array(PNG.sync.write(png));
}

describe("pngPhysicalSize", () => {
  it("reads the resolution our PNG labels state (203 dpi): exactly 4×6 in", () => {
    expect(pngPhysicalSize(renderPngLabel(sampleLabelContent()), 812, 1218)).toEqual({ width: 288, height: 432 });
  });

  it("fits an image without a stated resolution to 4×6 in, either way round", () => {
    expect(pngPhysicalSize(blankPng(1200, 1800), 1200, 1800)).toEqual({ width: 288, height: 432 });
    expect(pngPhysicalSize(blankPng(1800, 1200), 1800, 1200)).toEqual({ width: 432, height: 288 });
  });
});
