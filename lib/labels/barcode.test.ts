import { describe, expect, it } from "vitest";
import { code128Pattern, code128Text } from "@/lib/labels/barcode";

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
