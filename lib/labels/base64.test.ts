import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { BASE64_LINE_LENGTH, unwrapBase64, wrapBase64 } from "@/lib/labels/base64";

describe("wrapBase64", () => {
  it("breaks lines every 76 characters with no trailing newline", () => {
    const text = wrapBase64(randomBytes(1000));
    const lines = text.split("\n");
    expect(lines.length).toBe(Math.ceil(Buffer.from(randomBytes(1000)).toString("base64").length / 76));
    for (const line of lines.slice(0, -1)) expect(line).toHaveLength(BASE64_LINE_LENGTH);
    expect(lines.at(-1)!.length).toBeGreaterThan(0);
    expect(lines.at(-1)!.length).toBeLessThanOrEqual(BASE64_LINE_LENGTH);
    expect(text.endsWith("\n")).toBe(false);
  });

  it("leaves short input on one line and empty input empty", () => {
    expect(wrapBase64(new Uint8Array([1, 2, 3]))).toBe("AQID");
    expect(wrapBase64(new Uint8Array())).toBe("");
    // 57 bytes encode to exactly 76 characters: one full line, no newline.
    expect(wrapBase64(new Uint8Array(57))).not.toContain("\n");
    expect(
      wrapBase64(new Uint8Array(58))
        .split("\n")
        .map((l) => l.length),
    ).toEqual([76, 4]);
  });

  it("round-trips through unwrapBase64 for many lengths", () => {
    for (const n of [0, 1, 2, 3, 56, 57, 58, 114, 1000, 4099]) {
      const bytes = new Uint8Array(randomBytes(n));
      expect(unwrapBase64(wrapBase64(bytes))).toEqual(bytes);
    }
  });

  it("works on a view into a larger buffer", () => {
    const big = new Uint8Array([9, 9, 1, 2, 3, 9]);
    expect(wrapBase64(big.subarray(2, 5))).toBe("AQID");
  });
});

describe("unwrapBase64", () => {
  it("accepts CRLF and other whitespace", () => {
    expect(unwrapBase64("AQ\r\nID \n")).toEqual(new Uint8Array([1, 2, 3]));
  });

  it("rejects text that is not base64", () => {
    expect(() => unwrapBase64("not*base64")).toThrow(/base64/);
    expect(() => unwrapBase64("AAAAA")).toThrow(/base64/);
  });
});
