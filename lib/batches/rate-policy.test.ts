import { describe, expect, it } from "vitest";
import { BatchCreate } from "@/lib/schemas/batch";
import type { RateFields } from "@/lib/rates/present-rate";
import { pickRate, type RowParcel } from "./rate-policy";

const rate = (carrierId: string, service: string, totalCharge: number, transitDays: number): RateFields => ({
  id: `rate_${carrierId}_${service}`,
  carrierRef: `car_${carrierId}`,
  carrierName: "sandbox",
  carrierId,
  service,
  currency: "USD",
  baseCharge: totalCharge,
  discount: 0,
  dutiesAndTaxes: 0,
  totalCharge,
  extraCharges: [],
  transitDays,
  meta: { service_name: service, rate_provider: "sandbox", carrier_connection_id: `car_${carrierId}` },
  testMode: true,
});

const RATES = [
  rate("sbx", "SBX_GROUND", 6, 5),
  rate("sbx", "SBX_2DAY", 11, 2),
  rate("sbx", "SBX_OVERNIGHT", 25, 1),
  rate("other", "OTHER_ECONOMY", 5.5, 7),
];

const parcel = (over: Partial<RowParcel> = {}): RowParcel => ({
  recipient: { country_code: "US", state_code: "TX", postal_code: "78701" },
  parcels: [{ weight: 2, weight_unit: "KG" }],
  options: {},
  customs: null,
  ...over,
});

/** The policy as the API stores it: through the same schema as POST /v1/batches. */
const policy = (p: Record<string, unknown>) => BatchCreate.parse({ rate_policy: p }).rate_policy;

const rules = policy({
  kind: "rules",
  rules: [
    // Heavy parcels: the fixed ground service of one connection.
    { weight: { min: 10, unit: "LB" }, pick: { kind: "fixed", carrier_id: "sbx", service: "SBX_GROUND" } },
    // Seattle's 981 ZIPs: fastest.
    { destination: { country_code: "us", state_code: "wa", postal_prefix: "981" }, pick: { kind: "fastest" } },
    // Valuable goods: fastest of one connection.
    { value: { min: 500, currency: "usd" }, pick: { kind: "fastest", carrier_id: "sbx" } },
  ],
  fallback: { kind: "cheapest" },
});

const picked = (p: RowParcel, pol = rules) => {
  const out = pickRate(RATES, pol, null, p);
  if (!out.ok) throw new Error(out.message);
  return out.rate.service;
};

describe("a batch's rules policy (issue 33, item 3)", () => {
  it("a weight rule picks its fixed service, in its unit", () => {
    // 5 kg is 11 lb: the heavy rule; 4 kg (8.8 lb) is not.
    expect(picked(parcel({ parcels: [{ weight: 5, weight_unit: "KG" }] }))).toBe("SBX_GROUND");
    expect(picked(parcel({ parcels: [{ weight: 4, weight_unit: "kg" }] }))).toBe("OTHER_ECONOMY");
    // Parcels add up: two of 3 kg are heavy.
    expect(
      picked(
        parcel({
          parcels: [
            { weight: 3, weight_unit: "KG" },
            { weight: 3, weight_unit: "KG" },
          ],
        }),
      ),
    ).toBe("SBX_GROUND");
  });

  it("a destination rule matches its country, state and postal prefix", () => {
    const seattle = { country_code: "US", state_code: "WA", postal_code: "98101" };
    expect(picked(parcel({ recipient: seattle }))).toBe("SBX_OVERNIGHT");
    // Another WA ZIP, or the prefix in another state: the fallback.
    expect(picked(parcel({ recipient: { ...seattle, postal_code: "99201" } }))).toBe("OTHER_ECONOMY");
    expect(picked(parcel({ recipient: { ...seattle, state_code: "OR" } }))).toBe("OTHER_ECONOMY");
  });

  it("a value rule reads the customs value, else options.declared_value, in its currency", () => {
    const customs = { commodities: [{ quantity: 3, value_amount: 200, value_currency: "USD" }] };
    expect(picked(parcel({ customs }))).toBe("SBX_OVERNIGHT");
    expect(picked(parcel({ options: { declared_value: "650", currency: "usd" } }))).toBe("SBX_OVERNIGHT");
    expect(picked(parcel({ options: { declared_value: "650", currency: "EUR" } }))).toBe("OTHER_ECONOMY");
    expect(picked(parcel({ options: { declared_value: "499.99", currency: "USD" } }))).toBe("OTHER_ECONOMY");
  });

  it("rules are tried in order: the first that matches picks", () => {
    const heavyToSeattle = parcel({
      recipient: { country_code: "US", state_code: "WA", postal_code: "98101" },
      parcels: [{ weight: 20, weight_unit: "LB" }],
    });
    expect(picked(heavyToSeattle)).toBe("SBX_GROUND");
  });

  it("a row no rule matches takes the fallback (cheapest unless given)", () => {
    expect(picked(parcel())).toBe("OTHER_ECONOMY");
    const ownCarrier = policy({ kind: "rules", rules: rules.rules, fallback: { carrier_id: "sbx" } });
    expect(picked(parcel(), ownCarrier)).toBe("SBX_GROUND");
    const fastest = policy({ kind: "rules", rules: rules.rules, fallback: { kind: "fastest" } });
    expect(picked(parcel(), fastest)).toBe("SBX_OVERNIGHT");
    const defaulted = policy({ kind: "rules", rules: rules.rules });
    expect(defaulted.fallback).toEqual({ kind: "cheapest", carrier_id: null, service: null });
  });

  it("holds a pick above the price cap for a decision, whichever rule picked it", () => {
    const capped = policy({ ...rules, price_cap: { amount: 20, currency: "USD" } });
    const seattle = parcel({ recipient: { country_code: "US", state_code: "WA", postal_code: "98101" } });
    expect(pickRate(RATES, capped, null, seattle)).toMatchObject({ ok: true, held: "price_cap" });
    expect(pickRate(RATES, capped, null, parcel())).toMatchObject({ ok: true, held: null });
  });

  it("refuses a policy it could not apply, naming the field", () => {
    const problems = (p: Record<string, unknown>) => {
      const out = BatchCreate.safeParse({ rate_policy: p });
      return out.success ? [] : out.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    };
    expect(problems({ kind: "rules" })).toEqual(["rate_policy.rules: give at least one rule for a rules policy"]);
    expect(problems({ kind: "rules", rules: [{ pick: { kind: "cheapest" } }] })[0]).toMatch(
      /^rate_policy.rules.0.weight: a rule needs a condition/,
    );
    expect(problems({ kind: "rules", rules: [{ weight: { min: 5, max: 2 }, pick: {} }] })).toEqual([
      "rate_policy.rules.0.weight.max: must not be below min",
    ]);
    expect(problems({ kind: "rules", rules: [{ weight: { max: 2, unit: "stone" }, pick: {} }] })).toHaveLength(1);
    expect(problems({ kind: "rules", rules: [{ weight: { max: 2 }, pick: { kind: "fixed" } }] })).toEqual([
      "rate_policy.rules.0.pick.service: is required for a fixed pick",
    ]);
    expect(problems({ kind: "cheapest", rules: [{ weight: { max: 2 }, pick: {} }] })).toEqual([
      'rate_policy.rules: rules and fallback are for kind "rules"',
    ]);
    expect(problems({ kind: "rules", service: "SBX_GROUND", rules: [{ weight: { max: 2 }, pick: {} }] })[0]).toMatch(
      /^rate_policy.service: a rules policy picks per rule/,
    );
  });
});
