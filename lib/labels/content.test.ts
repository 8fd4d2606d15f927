import { describe, expect, it } from "vitest";
import { addressLines, toPrintableAscii } from "@/lib/labels/content";
import { sampleAddress } from "@/test/label-samples";

describe("addressLines", () => {
  it("writes US-style city lines and skips blank parts", () => {
    expect(addressLines(sampleAddress({ company_name: null, address_line2: "  " }))).toEqual([
      "Jane Doe",
      "1600 Amphitheatre Pkwy",
      "Mountain View, CA 94043",
      "US",
    ]);
  });

  it("puts the postal code first in continental Europe and on its own line in the UK", () => {
    const de = sampleAddress({
      company_name: null,
      address_line2: null,
      city: "München",
      postal_code: "80331",
      state_code: "",
      country_code: "DE",
    });
    expect(addressLines(de).slice(-2)).toEqual(["80331 München", "DE"]);
    const gb = sampleAddress({
      company_name: null,
      address_line2: null,
      city: "London",
      postal_code: "sw1a 1aa",
      state_code: "",
      country_code: "GB",
    });
    expect(addressLines(gb).slice(-3)).toEqual(["LONDON", "SW1A 1AA", "GB"]);
  });
});

describe("toPrintableAscii", () => {
  it("folds accents and Latin letters, blanks controls and replaces the rest", () => {
    expect(toPrintableAscii("Zoë Łukasz Straße\n王")).toBe("Zoe Lukasz Strasse ?");
  });
});
