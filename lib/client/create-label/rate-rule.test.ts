import { describe, expect, it } from "vitest";
import { preselectRate, type RateRuleSetting } from "./rate-rule";
import { rate } from "./test-rates";

const ground = rate({ service: "SBX_GROUND", total_charge: 9.9, transit_days: 5 });
const twoDay = rate({ service: "SBX_2DAY", service_name: "Sandbox 2-Day", total_charge: 15.2, transit_days: 2 });
const overnight = rate({ service: "SBX_OVERNIGHT", total_charge: 31, transit_days: 1 });
const rates = [twoDay, overnight, ground];

const rule = (kind: RateRuleSetting["kind"], carrier_id: string | null = null, service: string | null = null) => ({
  kind,
  carrier_id,
  service,
});

describe("the organization's rate rule on the create-label form", () => {
  it("preselects the cheapest, the fastest or the fixed service", () => {
    expect(preselectRate(rates, rule("cheapest"))).toEqual({ rate: ground, note: null });
    expect(preselectRate(rates, rule("fastest"))).toEqual({ rate: overnight, note: null });
    expect(preselectRate(rates, rule("fixed", "sandbox", "SBX_2DAY"))).toEqual({ rate: twoDay, note: null });
    expect(preselectRate([], rule("fastest"))).toEqual({ rate: null, note: null });
  });

  it("falls back to the cheapest, saying why, when the fixed service is not offered", () => {
    const other = preselectRate(rates, rule("fixed", "ups-main", "SBX_2DAY"));
    expect(other.rate).toBe(ground);
    expect(other.note).toMatch(/Sandbox 2-Day \(ups-main\), which is not offered for this parcel: the cheapest/);
    expect(preselectRate(rates, rule("fixed", "sandbox", "SBX_FREIGHT")).note).toMatch(/SBX_FREIGHT/);
  });

  it("takes a rate that says how fast it is over one that does not, and says so when none does", () => {
    const unknown = rate({ service: "SBX_MYSTERY", total_charge: 5, transit_days: 0, estimated_delivery: null });
    expect(preselectRate([unknown, ground], rule("fastest")).rate).toBe(ground);
    const none = preselectRate([unknown], rule("fastest"));
    expect(none).toEqual({ rate: unknown, note: expect.stringMatching(/cheapest is chosen instead/) });
  });

  it("chooses nothing across currencies, and says so rather than claiming the cheapest was chosen", () => {
    const euro = rate({
      service: "SBX_INTL",
      currency: "EUR",
      total_charge: 4,
      transit_days: 0,
      estimated_delivery: null,
    });
    const mixed = [ground, euro];
    for (const r of [rule("cheapest"), rule("fixed", "sandbox", "SBX_FREIGHT")]) {
      const { rate: chosen, note } = preselectRate(mixed, r);
      expect(chosen).toBeNull();
      expect(note).toMatch(/several currencies/);
      expect(note).not.toMatch(/cheapest rate is chosen/);
    }
    const noSpeed = preselectRate([euro, { ...euro, id: "rat_other", currency: "USD" }], rule("fastest"));
    expect(noSpeed.rate).toBeNull();
    expect(noSpeed.note).toMatch(/several currencies/);
  });
});
