import { describe, expect, it } from "vitest";
import {
  BUILT_IN_PRESETS,
  matchingPreset,
  presetChanges,
  presetLabel,
  presetValues,
  withDefaultPreset,
  type ParcelPreset,
} from "./parcel-presets";

const parcel = {
  weight: "1",
  weight_unit: "LB" as const,
  length: "",
  width: "",
  height: "",
  dimension_unit: "IN" as const,
};

describe("parcel presets", () => {
  it("fill in the dimensions and are recognised in them until the clerk changes one", () => {
    const medium = BUILT_IN_PRESETS.find((p) => p.id === "medium-box")!;
    const filled = { ...parcel, ...presetValues(medium) };
    expect(filled).toMatchObject({ length: "12", width: "10", height: "8", dimension_unit: "IN" });
    expect(matchingPreset(BUILT_IN_PRESETS, filled)).toBe(medium);
    expect(matchingPreset(BUILT_IN_PRESETS, { ...filled, height: "9" })).toBeNull();
    expect(matchingPreset(BUILT_IN_PRESETS, { ...filled, dimension_unit: "CM" })).toBeNull();
  });

  it("are named with their sizes", () => {
    expect(BUILT_IN_PRESETS.map(presetLabel)).toEqual([
      "Small box, 8 × 6 × 4 in",
      "Medium box, 12 × 10 × 8 in",
      "Large box, 18 × 14 × 12 in",
      "Padded envelope, 10 × 13 in",
    ]);
  });

  it("fill a weight only into an empty weight field, and the default one fills a blank parcel", () => {
    const mailer: ParcelPreset = {
      id: "pps_1",
      name: "Mailer",
      length: 30,
      width: 22,
      height: 3,
      dimension_unit: "CM",
      weight: 120,
      weight_unit: "G",
      is_default: true,
    };
    const blank = { ...parcel, weight: "" };
    expect(presetChanges(mailer, blank)).toEqual({
      length: "30",
      width: "22",
      height: "3",
      dimension_unit: "CM",
      weight: "120",
      weight_unit: "G",
    });
    // The clerk's weight stays as typed, in the clerk's unit.
    expect(presetChanges(mailer, parcel)).not.toHaveProperty("weight");
    expect(withDefaultPreset(blank, [...BUILT_IN_PRESETS, mailer])).toMatchObject({ weight: "120", length: "30" });
    expect(withDefaultPreset(blank, BUILT_IN_PRESETS)).toBe(blank);
  });
});
