import { describe, expect, it } from "vitest";
import { isValidUpsTrackingNumber, makeUpsTrackingNumber, upsCheckDigit } from "./ups-tracking";

describe("UPS tracking numbers", () => {
  it("passes UPS's published numbers: its example, its spec's and karrio's, its test environment's void numbers", () => {
    expect(upsCheckDigit("999AA1012345678")).toBe(4);
    for (const n of [
      "1Z999AA10123456784",
      "1Z023E2X0214323462",
      "1ZA82D672031716786",
      "1Z2220060294314162",
      "1Z2220060291994175",
    ]) {
      expect(isValidUpsTrackingNumber(n)).toBe(true);
    }
  });

  it("catches every single-character typo in the body", () => {
    const n = "1Z999AA10123456784";
    for (let i = 2; i < 17; i++) {
      const changed = n.slice(0, i) + (n[i] === "1" ? "2" : "1") + n.slice(i + 1);
      expect(isValidUpsTrackingNumber(changed)).toBe(false);
    }
  });

  it("makes 1Z + account + service + 7-digit serial + check digit", () => {
    const n = makeUpsTrackingNumber("a1b2c3", "3", 42);
    expect(n).toMatch(/^1ZA1B2C3030000042\d$/);
    expect(isValidUpsTrackingNumber(n)).toBe(true);
  });
});
