import { describe, expect, it } from "vitest";
import {
  cityIndex,
  cityPlace,
  COUNTRIES,
  countryIndex,
  gateway,
  OTHER_COUNTRY_INDEX,
  sortHub,
} from "@/lib/carriers/sandbox/locations";
import { testAddress } from "@/test/sandbox-context";

describe("location table", () => {
  it("fits the tracking number's digits and uses real time zones", () => {
    expect(COUNTRIES.length).toBeLessThan(OTHER_COUNTRY_INDEX);
    expect(new Set(COUNTRIES.map((c) => c.code)).size).toBe(COUNTRIES.length);
    for (const country of COUNTRIES) {
      expect(country.cities.length).toBeGreaterThan(0);
      expect(country.cities.length).toBeLessThanOrEqual(10);
      expect(country.hubs.length).toBeGreaterThan(0);
      for (const place of [...country.cities, ...country.hubs]) {
        expect(() => new Intl.DateTimeFormat("en", { timeZone: place.tz })).not.toThrow();
      }
      for (const i of country.byPostalDigit ?? []) expect(country.cities[i]).toBeDefined();
    }
  });

  it("keeps the first countries where issued numbers expect them (append only)", () => {
    expect(COUNTRIES.slice(0, 5).map((c) => c.code)).toEqual(["US", "CA", "GB", "DE", "FR"]);
  });
});

describe("countryIndex / cityIndex", () => {
  const US = countryIndex("US");
  const DE = countryIndex("de");

  it("matches the city by name, local spelling, state, then postal region", () => {
    expect(cityIndex(US, testAddress({ city: "Boston", state_code: "MA", postal_code: "02108" }))).toBe(8);
    expect(
      cityIndex(DE, testAddress({ city: "München", country_code: "DE", state_code: "", postal_code: "80331" })),
    ).toBe(2);
    expect(cityIndex(DE, testAddress({ city: "KÖLN", country_code: "DE", state_code: "", postal_code: "50667" }))).toBe(
      3,
    );
    expect(cityIndex(US, testAddress({ city: "Mountain View", state_code: "CA", postal_code: "94043" }))).toBe(1);
    expect(cityIndex(US, testAddress({ city: "Austin", state_code: "TX", postal_code: "73301" }))).toBe(3);
    expect(cityIndex(US, testAddress({ city: "Portland", state_code: "OR", postal_code: "97201" }))).toBe(1); // ZIP region 9 → Los Angeles
  });

  it("falls back to a stable hash of the postal code", () => {
    const a = testAddress({ city: "Dresden", country_code: "DE", state_code: "", postal_code: "01067" });
    expect(cityIndex(DE, a)).toBe(cityIndex(DE, { ...a }));
    expect(cityIndex(DE, a)).toBeLessThan(COUNTRIES[DE]!.cities.length);
  });

  it("names places the way carriers do, with a generic centre for unlisted countries", () => {
    expect(cityPlace(US, 0).label).toBe("New York, NY, US");
    expect(cityPlace(DE, 2).label).toBe("Munich, DE");
    expect(gateway(US).label).toBe("Louisville, KY, US");
    expect(sortHub(US, 0, 1).label).toBe("Memphis, TN, US");
    expect(countryIndex("ZZ")).toBe(OTHER_COUNTRY_INDEX);
    expect(cityPlace(OTHER_COUNTRY_INDEX, 0).label).toBe("Sandbox International Service Center");
    expect(gateway(OTHER_COUNTRY_INDEX).place.tz).toBe("UTC");
  });
});
