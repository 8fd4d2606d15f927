import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { code128Pattern, code128Png, code128Text } from "@/lib/labels/barcode";

describe("code128Pattern", () => {
  it("encodes start, data, check and stop characters", () => {
    // "AB" in subset B: start B (11) + A (11) + B (11) + check (11) + stop (13) modules.
    const p = code128Pattern("AB");
    expect(p.modules).toBe(57);
    // Start B is 2-1-1-2-1-4 (bar first); stop ends with a 2-module bar.
    expect(p.widths.slice(0, 6)).toEqual([2, 1, 1, 2, 1, 4]);
    expect(p.widths.at(-1)).toBe(2);
    expect(p.widths.length % 2).toBe(1);
  });

  it("uses subset C for long digit runs (shorter symbol)", () => {
    expect(code128Pattern("SBX" + "1".repeat(20)).modules).toBeLessThan(code128Pattern("SBX" + "A".repeat(20)).modules);
  });

  it("never hands bwip-js an empty or non-ASCII value", () => {
    expect(code128Text("")).toBe("0");
    expect(code128Text("Zoë")).toBe("Zoe");
  });
});

describe("code128Png", () => {
  it("renders the same bars as the pattern, scaled per module", async () => {
    const pattern = code128Pattern("SBX123");
    const png = PNG.sync.read(Buffer.from(await code128Png("SBX123", 2, 40)));
    expect(png.width).toBe(pattern.modules * 2);
    const y = Math.floor(png.height / 2);
    const dark = (x: number): boolean => png.data[(y * png.width + x) * 4 + 3]! > 128 && png.data[(y * png.width + x) * 4]! < 128;
    const runs: number[] = [];
    let current = dark(0);
    let length = 0;
    for (let x = 0; x < png.width; x++) {
      if (dark(x) === current) length++;
      else {
        runs.push(length);
        current = dark(x);
        length = 1;
      }
    }
    runs.push(length);
    expect(runs).toEqual(pattern.widths.map((w) => w * 2));
  });
});
