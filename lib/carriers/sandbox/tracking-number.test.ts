import { describe, expect, it } from "vitest";
import {
  checkDigit,
  isValidTrackingNumber,
  makeTrackingNumber,
  parseTrackingNumber,
  TRACKING_EPOCH_MS,
} from "@/lib/carriers/sandbox/tracking-number";

const purchasedAt = new Date("2024-03-04T15:00:00Z");

describe("checkDigit (GS1 mod 10, as USPS IMpb)", () => {
  it("agrees with real USPS numbers (docs/carriers.md)", () => {
    for (const n of ["9400109104250532908587", "9234690361980900000142"]) {
      expect(checkDigit(n.slice(0, -1))).toBe(Number(n.at(-1)));
    }
  });

  it("weights the rightmost data digit by 3", () => {
    expect(checkDigit("00000000000000000000")).toBe(0);
    expect(checkDigit("00000000000000000001")).toBe(7); // 1×3 = 3 → 10 − 3
    expect(checkDigit("00000000000000000010")).toBe(9); // 1×1 = 1 → 10 − 1
  });
});

describe("makeTrackingNumber / parseTrackingNumber", () => {
  it("round-trips every field", () => {
    const parts = {
      purchasedAt,
      scenario: 5,
      international: true,
      originCountry: 0,
      originCity: 9,
      destinationCountry: 2,
      destinationCity: 3,
      serial: 42,
    };
    const n = makeTrackingNumber(parts);
    expect(n).toMatch(/^SBX\d{21}$/);
    expect(parseTrackingNumber(n)).toEqual(parts);
  });

  it("lays the digits out as documented", () => {
    const n = makeTrackingNumber({
      purchasedAt,
      scenario: 7,
      international: true,
      originCountry: 12,
      originCity: 3,
      destinationCountry: 45,
      destinationCity: 6,
      serial: 789,
    });
    const seconds = String((purchasedAt.getTime() - TRACKING_EPOCH_MS) / 1000).padStart(9, "0");
    expect(n.slice(3, 23)).toBe(`${seconds}1123456789` + "7");
    expect(n.slice(0, 3)).toBe("SBX");
    // The example in the module comment.
    expect(makeTrackingNumber({ purchasedAt, destinationCity: 1, serial: 42 })).toBe("SBX131727600000000104202");
  });

  it("defaults to a domestic US route with serial 0 and infers international from the countries", () => {
    expect(parseTrackingNumber(makeTrackingNumber({ purchasedAt }))).toEqual({
      purchasedAt,
      scenario: 0,
      international: false,
      originCountry: 0,
      originCity: 0,
      destinationCountry: 0,
      destinationCity: 0,
      serial: 0,
    });
    expect(parseTrackingNumber(makeTrackingNumber({ purchasedAt, destinationCountry: 2 }))?.international).toBe(true);
  });

  it("keeps whole seconds of the purchase time", () => {
    const parsed = parseTrackingNumber(makeTrackingNumber({ purchasedAt: new Date("2024-03-04T15:00:00.987Z") }));
    expect(parsed?.purchasedAt.toISOString()).toBe("2024-03-04T15:00:00.000Z");
  });

  it("rejects every single-digit change (check digit)", () => {
    const n = makeTrackingNumber({ purchasedAt, scenario: 2, serial: 123 });
    expect(isValidTrackingNumber(n)).toBe(true);
    for (let i = 3; i < n.length; i++) {
      const d = Number(n[i]);
      const changed = n.slice(0, i) + String((d + 1) % 10) + n.slice(i + 1);
      expect(isValidTrackingNumber(changed)).toBe(false);
    }
  });

  it("rejects other shapes and accepts spaces and lower case", () => {
    const n = makeTrackingNumber({ purchasedAt });
    expect(isValidTrackingNumber(n.slice(0, -1))).toBe(false);
    expect(isValidTrackingNumber(n + "0")).toBe(false);
    expect(isValidTrackingNumber("UPS" + n.slice(3))).toBe(false);
    expect(isValidTrackingNumber("1Z999AA10123456784")).toBe(false);
    expect(isValidTrackingNumber("")).toBe(false);
    expect(isValidTrackingNumber(` ${n.slice(0, 8).toLowerCase()} ${n.slice(8)} `)).toBe(true);
    // The international flag digit must be 0 or 1 even when the check digit is right.
    const data = n.slice(3, 12) + "2" + n.slice(13, 23);
    expect(isValidTrackingNumber(`SBX${data}${checkDigit(data)}`)).toBe(false);
  });

  it("refuses values that do not fit their digits", () => {
    expect(() => makeTrackingNumber({ purchasedAt: new Date("2019-12-31T23:59:59Z") })).toThrow(RangeError);
    expect(() => makeTrackingNumber({ purchasedAt, scenario: 10 })).toThrow(RangeError);
    expect(() => makeTrackingNumber({ purchasedAt, serial: 1000 })).toThrow(RangeError);
    expect(() => makeTrackingNumber({ purchasedAt, originCountry: 100 })).toThrow(RangeError);
  });
});
