import { describe, expect, it } from "vitest";
import type { RateQuote } from "@/lib/carriers/types";
import { addBusinessDays, isoDate } from "@/lib/carriers/sandbox/dates";
import {
  currencyFor,
  postalZoneDigit,
  priceService,
  validateShipment,
  zoneFor,
  type PricingInput,
} from "@/lib/carriers/sandbox/pricing";
import { findService, type SandboxService } from "@/lib/carriers/sandbox/services";
import { testAddress, testParcel, testRateRequest } from "@/test/sandbox-context";
import { billableWeightKg, dimensionalWeightKg, toKg } from "@/lib/carriers/sandbox/units";

const now = new Date("2024-03-04T15:00:00Z"); // a Monday
const settings = { fuelSurchargePercent: 8.5, now };
const service = (code: string): SandboxService => findService(code)!;
const input = (overrides: Partial<PricingInput> = {}): PricingInput => ({ ...testRateRequest(), ...overrides });
const cents = (n: number): number => Math.round(n * 100);

function expectConsistent(q: RateQuote): void {
  const extras = q.extra_charges.reduce((s, e) => s + cents(e.amount), 0);
  expect(cents(q.total_charge)).toBe(cents(q.base_charge) + extras - cents(q.discount) + cents(q.duties_and_taxes));
  for (const n of [
    q.base_charge,
    q.total_charge,
    q.discount,
    q.duties_and_taxes,
    ...q.extra_charges.map((e) => e.amount),
  ]) {
    expect(cents(n) / 100).toBe(n);
  }
}

describe("zones and currency", () => {
  it("derives the domestic zone from the first characters of the postal codes", () => {
    expect(zoneFor(testAddress({ postal_code: "10118" }), testAddress({ postal_code: "90012" }))).toBe(9);
    expect(zoneFor(testAddress({ postal_code: "10118" }), testAddress({ postal_code: "10001" }))).toBe(1);
    expect(postalZoneDigit("SW1A 1AA")).toBe(8); // S is letter 18
    expect(postalZoneDigit("K1A 0B1")).toBe(0); // K is letter 10
    expect(postalZoneDigit(" ")).toBe(0);
  });

  it("puts every international route in zone 12", () => {
    expect(zoneFor(testAddress(), testAddress({ country_code: "GB", postal_code: "SW1A 1AA" }))).toBe(12);
  });

  it("uses the origin country's currency", () => {
    expect([
      currencyFor("US"),
      currencyFor("ca"),
      currencyFor("GB"),
      currencyFor("DE"),
      currencyFor("FR"),
      currencyFor("AU"),
      currencyFor("JP"),
    ]).toEqual(["USD", "CAD", "GBP", "EUR", "EUR", "AUD", "USD"]);
  });
});

describe("priceService (hand-computed)", () => {
  it("prices New York → Los Angeles, one 2 kg parcel, for each domestic service", () => {
    // Zone 9: 3.90/kg. Ground: 4.50 + 3.90×2 = 12.30; fuel 8.5 % = 1.0455 → 1.05.
    const ground = priceService(service("SBX_GROUND"), input(), settings);
    expect(ground).toEqual({
      service: "SBX_GROUND",
      service_name: "Sandbox Ground",
      currency: "USD",
      base_charge: 12.3,
      discount: 0,
      duties_and_taxes: 0,
      total_charge: 13.35,
      extra_charges: [{ name: "Fuel surcharge", amount: 1.05, currency: "USD" }],
      transit_days: 5,
      estimated_delivery: "2024-03-11",
    });
    // 2-Day: 7.50 + 1.75×3.90×2 = 21.15; fuel 1.79775 → 1.80.
    const twoDay = priceService(service("SBX_2DAY"), input(), settings);
    expect([twoDay.base_charge, twoDay.total_charge, twoDay.transit_days, twoDay.estimated_delivery]).toEqual([
      21.15,
      22.95,
      2,
      "2024-03-06",
    ]);
    // Overnight: 12.00 + 2.9×3.90×2 = 34.62; fuel 2.9427 → 2.94.
    const overnight = priceService(service("SBX_OVERNIGHT"), input(), settings);
    expect([overnight.base_charge, overnight.total_charge, overnight.estimated_delivery]).toEqual([
      34.62,
      37.56,
      "2024-03-05",
    ]);
    for (const q of [ground, twoDay, overnight]) expectConsistent(q);
  });

  it("adds residential surcharges, dimensional weight and the volume discount", () => {
    const req = input({
      recipient: testAddress({ postal_code: "90012", residential: true }),
      parcels: [
        testParcel({ weight: 2, weight_unit: "KG" }), // billable 2 kg → 4.50 + 3.90×2 = 12.30
        testParcel({ weight: 1, weight_unit: "KG", length: 40, width: 30, height: 20, dimension_unit: "CM" }), // 24000/5000 = 4.8 kg → 23.22
        testParcel({ weight: 10, weight_unit: "LB" }), // 4.536 kg → 4.50 + 17.6904 = 22.1904 → 22.19
      ],
    });
    const q = priceService(service("SBX_GROUND"), req, settings);
    expect(q.base_charge).toBe(57.71);
    expect(q.extra_charges).toEqual([
      { name: "Fuel surcharge", amount: 4.91, currency: "USD" }, // 4.90535
      { name: "Residential surcharge", amount: 11.85, currency: "USD" }, // 3 × 3.95
    ]);
    expect(q.discount).toBe(2.89); // 5 % of 57.71 = 2.8855
    expect(q.total_charge).toBe(71.58);
    expectConsistent(q);
  });

  it("charges international duties on the declared value", () => {
    const req = input({
      recipient: testAddress({ country_code: "GB", city: "London", postal_code: "SW1A 1AA", state_code: "" }),
      options: { declared_value: 200 },
    });
    // Zone 12: 4.95/kg. 18.00 + 4.95×2 = 27.90; fuel 2.3715 → 2.37; duties 10 % of 200 = 20.00.
    const q = priceService(service("SBX_INTL"), req, settings);
    expect([q.base_charge, q.duties_and_taxes, q.total_charge, q.currency, q.transit_days]).toEqual([
      27.9,
      20,
      50.27,
      "USD",
      6,
    ]);
    expectConsistent(q);
    expect(priceService(service("SBX_INTL"), { ...req, options: {} }, settings).duties_and_taxes).toBe(0);
    expect(
      priceService(service("SBX_INTL"), { ...req, options: { declared_value: "200" } }, settings).duties_and_taxes,
    ).toBe(20);
    expect(() => priceService(service("SBX_INTL"), { ...req, options: { declared_value: -1 } }, settings)).toThrow(
      /declared_value/,
    );
  });

  it("leaves the fuel line out at 0 %", () => {
    const q = priceService(service("SBX_GROUND"), input(), { ...settings, fuelSurchargePercent: 0 });
    expect(q.extra_charges).toEqual([]);
    expect(q.total_charge).toBe(12.3);
  });

  it("keeps total = base + extras − discount + duties for many shipments", () => {
    let seed = 7;
    const rnd = (): number => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let i = 0; i < 200; i++) {
      const parcels = Array.from({ length: 1 + Math.floor(rnd() * 4) }, () =>
        testParcel({
          weight: Math.round(rnd() * 3000) / 100 + 0.01,
          weight_unit: (["KG", "LB", "OZ", "G"] as const)[Math.floor(rnd() * 4)]!,
          length: rnd() * 80,
          width: rnd() * 60,
          height: rnd() * 40,
          dimension_unit: rnd() < 0.5 ? "CM" : "IN",
        }),
      );
      const req = input({
        parcels,
        recipient: testAddress({
          postal_code: String(Math.floor(rnd() * 99999)).padStart(5, "1"),
          residential: rnd() < 0.5,
        }),
      });
      expectConsistent(
        priceService(service("SBX_GROUND"), req, { ...settings, fuelSurchargePercent: Math.round(rnd() * 200) / 10 }),
      );
    }
  });
});

describe("units", () => {
  it("converts every weight unit to kilograms", () => {
    expect(toKg(1, "KG")).toBe(1);
    expect(toKg(1, "LB")).toBeCloseTo(0.45359237, 10);
    expect(toKg(16, "OZ")).toBeCloseTo(0.45359237, 10);
    expect(toKg(1500, "G")).toBeCloseTo(1.5, 10);
  });

  it("computes dimensional weight as L×W×H / 5000 cm³ and bills the larger weight", () => {
    const box = testParcel({ weight: 2, length: 50, width: 40, height: 30, dimension_unit: "CM" });
    expect(dimensionalWeightKg(box)).toBe(12);
    expect(billableWeightKg(box)).toBe(12);
    expect(billableWeightKg({ ...box, weight: 15 })).toBe(15);
    expect(dimensionalWeightKg(testParcel({ length: 10, width: null, height: 10 }))).toBeNull();
  });

  it("prices the same parcel the same in KG/CM, LB/IN, G and OZ", () => {
    const metric = testParcel({
      weight: 2.5,
      weight_unit: "KG",
      length: 50,
      width: 40,
      height: 30,
      dimension_unit: "CM",
    });
    const imperial = testParcel({
      weight: 2.5 / 0.45359237,
      weight_unit: "LB",
      length: 50 / 2.54,
      width: 40 / 2.54,
      height: 30 / 2.54,
      dimension_unit: "IN",
    });
    const grams = testParcel({
      weight: 2500,
      weight_unit: "G",
      length: 50,
      width: 40,
      height: 30,
      dimension_unit: "CM",
    });
    const ounces = testParcel({
      weight: 2500 / 28.349523125,
      weight_unit: "OZ",
      length: 50 / 2.54,
      width: 40 / 2.54,
      height: 30 / 2.54,
      dimension_unit: "IN",
    });
    const totals = [metric, imperial, grams, ounces].map(
      (p) => priceService(service("SBX_2DAY"), input({ parcels: [p] }), settings).total_charge,
    );
    expect(new Set(totals).size).toBe(1);
    // Without dimensions the actual weight decides, and still agrees.
    const bare = [
      testParcel({ weight: 3, weight_unit: "KG" }),
      testParcel({ weight: 3 / 0.45359237, weight_unit: "LB" }),
    ];
    const [a, b] = bare.map((p) => priceService(service("SBX_GROUND"), input({ parcels: [p] }), settings).total_charge);
    expect(a).toBe(b);
  });
});

describe("validateShipment", () => {
  it("refuses postal code 00000 on either address", () => {
    expect(() => validateShipment(testAddress({ postal_code: "00000" }), testAddress(), [testParcel()])).toThrow(
      "Invalid postal code 00000 for US.",
    );
    try {
      validateShipment(testAddress(), testAddress({ postal_code: "00000", country_code: "ca" }), [testParcel()]);
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ code: "SBX_INVALID_POSTAL_CODE", message: "Invalid postal code 00000 for CA." });
      expect((error as { messages: { details: unknown }[] }).messages[0]!.details).toMatchObject({
        field: "recipient.postal_code",
      });
    }
  });

  it("refuses a parcel over 70 kg, in any unit", () => {
    expect(() => validateShipment(testAddress(), testAddress(), [testParcel({ weight: 70 })])).not.toThrow();
    expect(() =>
      validateShipment(testAddress(), testAddress(), [testParcel({ weight: 154, weight_unit: "LB" })]),
    ).not.toThrow();
    expect(() =>
      validateShipment(testAddress(), testAddress(), [testParcel(), testParcel({ weight: 155, weight_unit: "LB" })]),
    ).toThrow("Parcel 2 weighs 70.31 kg, over the 70 kg limit per parcel.");
  });
});

describe("addBusinessDays", () => {
  it("skips weekends", () => {
    expect(isoDate(addBusinessDays(new Date("2024-03-08T10:00:00Z"), 1))).toBe("2024-03-11"); // Fri → Mon
    expect(isoDate(addBusinessDays(new Date("2024-03-09T10:00:00Z"), 1))).toBe("2024-03-11"); // Sat → Mon
    expect(isoDate(addBusinessDays(new Date("2024-03-04T10:00:00Z"), 5))).toBe("2024-03-11");
    expect(isoDate(addBusinessDays(new Date("2024-03-04T10:00:00Z"), 0))).toBe("2024-03-04");
  });
});
