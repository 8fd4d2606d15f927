import { describe, expect, it } from "vitest";
import { allCouriers } from "ts-tracking-number";
import { carriersForNumber } from "./detect";
import { makeTrackingNumber } from "./sandbox/tracking-number";

/** The library's own valid and invalid sample numbers of one of its formats. */
const samples = (code: string, format: (name: string) => boolean = () => true) =>
  allCouriers
    .filter((c) => c.courier_code === code)
    .flatMap((c) => c.tracking_numbers)
    .filter((t) => format(t.name));

describe("carriersForNumber", () => {
  it.each([
    ["ups", "ups"],
    ["fedex", "fedex"],
    ["usps", "usps"],
  ])("every valid %s sample of the tables is %s, spaces and case aside", (code, carrier) => {
    for (const format of samples(code)) {
      for (const number of format.test_numbers.valid) expect(carriersForNumber(number), number).toContain(carrier);
      for (const number of format.test_numbers.invalid)
        expect(carriersForNumber(number), number).not.toContain(carrier);
    }
    const first = samples(code)[0]!.test_numbers.valid[0]!;
    expect(carriersForNumber(first.toLowerCase())).toContain(carrier);
  });

  it("DHL Express's waybills and piece ids are dhl_express; DHL eCommerce's numbers are not", () => {
    const express = samples("dhl", (name) => name.startsWith("DHL Express"));
    expect(express.length).toBeGreaterThan(0);
    for (const format of express) {
      for (const number of format.test_numbers.valid)
        expect(carriersForNumber(number), number).toContain("dhl_express");
    }
    for (const format of samples("dhl", (name) => !name.startsWith("DHL Express"))) {
      for (const number of format.test_numbers.valid) {
        expect(carriersForNumber(number), number).not.toContain("dhl_express");
      }
    }
  });

  it("a UPU S10 postal number is its issuing post's, when we speak it", () => {
    expect(carriersForNumber("RB123456785US")).toEqual(["usps"]);
    expect(carriersForNumber("RB123456785CA")).toEqual(["canadapost"]);
    expect(carriersForNumber("RB123456785GB")).toEqual([]);
    // A wrong check digit is no S10 number at all.
    expect(carriersForNumber("RB123456784CA")).toEqual([]);
  });

  it("the sandbox's numbers are the sandbox's; a broken check digit is nobody's", () => {
    const number = makeTrackingNumber({ purchasedAt: new Date("2026-11-01T10:00:00Z"), scenario: 0 });
    expect(carriersForNumber(number)).toEqual(["sandbox"]);
    const broken = number.slice(0, -1) + String((Number(number.at(-1)) + 1) % 10);
    expect(carriersForNumber(broken)).toEqual([]);
  });

  it("nothing for an empty, overlong or shapeless number", () => {
    expect(carriersForNumber("")).toEqual([]);
    expect(carriersForNumber("   ")).toEqual([]);
    expect(carriersForNumber("1Z5R89390357567127".repeat(4))).toEqual([]);
    expect(carriersForNumber("hello")).toEqual([]);
  });
});
