import { describe, expect, it } from "vitest";
import { PresetForm, RuleForm, presetFormValues, ruleFormValues } from "./parcel-preset-form";

describe("the parcel preset form", () => {
  it("sends numbers, and a weight unit only with a weight", () => {
    const typed = { ...presetFormValues(null), name: "Mailer", length: "30", width: "22,5", height: "3" };
    expect(PresetForm.parse(typed)).toMatchObject({ length: 30, width: 22.5, weight: null, weight_unit: null });
    expect(PresetForm.parse({ ...typed, weight: "2", weight_unit: "KG" })).toMatchObject({
      weight: 2,
      weight_unit: "KG",
    });
  });

  it("names the field that is wrong", () => {
    const out = PresetForm.safeParse({ ...presetFormValues(null), name: "Box", length: "ten", width: "0", height: "" });
    expect(out.success).toBe(false);
    expect(out.error!.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["length", "must be a number"],
      ["width", "must be more than 0"],
      ["height", "must not be empty"],
    ]);
  });
});

describe("the rate rule form", () => {
  it("round-trips a fixed rule through one select's value", () => {
    const rule = { kind: "fixed" as const, carrier_id: "ups-main", service: "ups_ground", updated_at: null };
    expect(RuleForm.parse(ruleFormValues(rule))).toEqual({
      kind: "fixed",
      carrier_id: "ups-main",
      service: "ups_ground",
    });
    expect(RuleForm.parse({ kind: "fastest", fixed: "ups-main ups_ground" })).toEqual({
      kind: "fastest",
      carrier_id: null,
      service: null,
    });
    expect(RuleForm.safeParse({ kind: "fixed", fixed: "" }).success).toBe(false);
  });
});
