import type { DimensionUnit, WeightUnit } from "@/lib/carriers/types";
import type { ParcelValues } from "./form-schema";
import { numberFromText } from "./number-text";

/**
 * A box the clerk ships often: the organization's own (GET /v1/parcel_presets, which may carry a weight and be the
 * default) or a built-in one from this file.
 */
export interface ParcelPreset {
  id: string;
  name: string;
  length: number;
  width: number;
  height: number;
  dimension_unit: DimensionUnit;
  weight?: number | null;
  weight_unit?: WeightUnit | null;
  is_default?: boolean;
}

export const BUILT_IN_PRESETS: readonly ParcelPreset[] = [
  { id: "small-box", name: "Small box", length: 8, width: 6, height: 4, dimension_unit: "IN" },
  { id: "medium-box", name: "Medium box", length: 12, width: 10, height: 8, dimension_unit: "IN" },
  { id: "large-box", name: "Large box", length: 18, width: 14, height: 12, dimension_unit: "IN" },
  // Carriers price an envelope as a box: one inch deep is what a filled padded mailer usually measures.
  { id: "padded-envelope", name: "Padded envelope", length: 13, width: 10, height: 1, dimension_unit: "IN" },
];

const unitLabel = (unit: DimensionUnit) => unit.toLowerCase();

/** "Small box, 8 × 6 × 4 in" (an envelope's depth is not part of its name). */
export function presetLabel(preset: ParcelPreset): string {
  const flat = preset.id === "padded-envelope";
  const sides = flat ? [preset.width, preset.length] : [preset.length, preset.width, preset.height];
  return `${preset.name}, ${sides.join(" × ")} ${unitLabel(preset.dimension_unit)}`;
}

/** The parcel fields a preset fills in; the weight is the clerk's. */
export function presetValues(
  preset: ParcelPreset,
): Pick<ParcelValues, "length" | "width" | "height" | "dimension_unit"> {
  return {
    length: String(preset.length),
    width: String(preset.width),
    height: String(preset.height),
    dimension_unit: preset.dimension_unit,
  };
}

/**
 * What choosing a preset changes: its dimensions always (that is the choice), its weight only into an empty weight
 * field, so a weight the clerk typed is never overwritten.
 */
export function presetChanges(preset: ParcelPreset, parcel: ParcelValues): Partial<ParcelValues> {
  const weight =
    preset.weight && preset.weight_unit && parcel.weight.trim() === ""
      ? { weight: String(preset.weight), weight_unit: preset.weight_unit }
      : {};
  return { ...presetValues(preset), ...weight };
}

/** A blank parcel filled from the organization's default preset, if it has one; otherwise as it was. */
export function withDefaultPreset(parcel: ParcelValues, presets: readonly ParcelPreset[]): ParcelValues {
  const preset = presets.find((p) => p.is_default);
  return preset ? { ...parcel, ...presetChanges(preset, parcel) } : parcel;
}

/** The preset the parcel's dimensions are, if any: the select shows it, and "Custom" once the clerk edits them. */
export function matchingPreset(presets: readonly ParcelPreset[], parcel: ParcelValues): ParcelPreset | null {
  return (
    presets.find(
      (p) =>
        p.dimension_unit === parcel.dimension_unit &&
        numberFromText(parcel.length) === p.length &&
        numberFromText(parcel.width) === p.width &&
        numberFromText(parcel.height) === p.height,
    ) ?? null
  );
}
