import { describe, expect, it } from "vitest";
import { parseServiceChoice, ratePolicyOf, serviceChoice, type NewBatchOutput } from "./batch-form";

const values = (v: Partial<NewBatchOutput>) =>
  ({ rate_policy: "cheapest", fixed_service: "", price_cap: null, price_cap_currency: "USD", ...v }) as NewBatchOutput;

describe("the new-batch form's rate policy", () => {
  it("sends a fixed carrier and service from one choice, and a cap only when given", () => {
    expect(ratePolicyOf(values({}))).toEqual({ kind: "cheapest" });
    expect(
      ratePolicyOf(values({ rate_policy: "fixed", fixed_service: serviceChoice("ups-main", "03"), price_cap: 12.5 })),
    ).toEqual({
      kind: "fixed",
      carrier_id: "ups-main",
      service: "03",
      price_cap: { amount: 12.5, currency: "USD" },
    });
    // A service left from a fixed choice is not sent with another kind.
    expect(ratePolicyOf(values({ rate_policy: "fastest", fixed_service: serviceChoice("a", "b") }))).toEqual({
      kind: "fastest",
    });
  });

  it("reads back only a whole choice", () => {
    expect(parseServiceChoice(serviceChoice("sandbox", "SBX_GROUND"))).toEqual({
      carrier_id: "sandbox",
      service: "SBX_GROUND",
    });
    for (const bad of ["", "x", "[]", '["a"]', '["", "b"]', "[1, 2]"]) expect(parseServiceChoice(bad)).toBeNull();
  });
});
