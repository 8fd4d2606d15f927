import { describe, expect, it } from "vitest";
import { COUNTRIES, postalCodeProblem, subdivisionsOf } from "./address-data";

describe("postalCodeProblem", () => {
  it("accepts the usual ways of writing a postal code", () => {
    for (const [country, code] of [
      ["US", "94105"],
      ["US", "94105-1234"],
      ["CA", "K1A 0B1"],
      ["CA", "k1a0b1"],
      ["GB", "SW1A 1AA"],
      ["GB", "M1 1AE"],
      ["DE", "10115"],
      ["NL", "1012 AB"],
      ["JP", "100-0001"],
      // A country whose format we do not know takes anything; the carrier judges it.
      ["BR", "01310-100"],
    ]) {
      expect(postalCodeProblem(country!, code!), `${country} ${code}`).toBeNull();
    }
  });

  it("says what a code should look like when it cannot be right", () => {
    expect(postalCodeProblem("US", "9410")).toBe("must look like 94105 or 94105-1234");
    expect(postalCodeProblem("CA", "12345")).toMatch(/^must look like K1A 0B1/);
    expect(postalCodeProblem("GB", "12345")).toMatch(/SW1A 1AA/);
    expect(postalCodeProblem("DE", "1011")).toMatch(/10115/);
  });

  it("leaves an empty code to the required rule", () => {
    expect(postalCodeProblem("US", "  ")).toBeNull();
  });
});

describe("reference data", () => {
  it("lists each country once, by ISO code", () => {
    const codes = COUNTRIES.map((c) => c.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^[A-Z]{2}$/);
  });

  it("has a state list where the API requires a state", () => {
    expect(subdivisionsOf("US")?.options.some((s) => s.code === "NY")).toBe(true);
    expect(subdivisionsOf("CA")?.options).toHaveLength(13);
    expect(subdivisionsOf("AU")?.label).toBe("State");
    expect(subdivisionsOf("DE")).toBeNull();
  });
});
