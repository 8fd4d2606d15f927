import type { DimensionUnit, Parcel, WeightUnit } from "@/lib/carriers/types";
import { sandboxRefusal } from "@/lib/carriers/sandbox/errors";
import { convertLength, convertWeight, isDimensionUnit, isWeightUnit } from "@/lib/carriers/units";

/**
 * Unit conversion for pricing. Everything is converted to kilograms and centimetres first, so the same parcel
 * costs the same whether it was entered in KG/CM or LB/IN (up to the last gram of rounding).
 */

/** The layer validates units before an adapter sees them; one that slipped through is refused, never guessed. */
function known(unit: string, isUnit: (u: string) => boolean): void {
  if (!isUnit(unit)) throw sandboxRefusal("SBX_INVALID_UNIT", "Unknown weight or dimension unit.");
}

/**
 * Dimensional-weight divisor: 5000 cm³ per kg. The imperial convention (139 in³ per lb) is the same rule within
 * 0.4 %; using one canonical divisor is what keeps KG/CM and LB/IN quotes identical.
 */
const DIM_DIVISOR_CM3_PER_KG = 5000;

/** Largest actual weight per parcel the sandbox accepts. */
export const MAX_PARCEL_WEIGHT_KG = 70;

export function toKg(weight: number, unit: WeightUnit): number {
  known(unit, isWeightUnit);
  return convertWeight(weight, unit, "KG");
}

function toCm(length: number, unit: DimensionUnit): number {
  known(unit, isDimensionUnit);
  return convertLength(length, unit, "CM");
}

/** Rounds to whole grams so float noise from unit conversion cannot tip a price by a cent. */
function roundKg(kg: number): number {
  return Math.round(kg * 1000) / 1000;
}

export function actualWeightKg(parcel: Parcel): number {
  return roundKg(toKg(parcel.weight, parcel.weight_unit));
}

/**
 * L×W×H / 5000 in kg when all three dimensions are given, else null. Dimensions without a unit are taken as CM
 * (the input layer normally requires the unit together with the dimensions).
 */
export function dimensionalWeightKg(parcel: Parcel): number | null {
  const { length, width, height } = parcel;
  if (length === null || width === null || height === null) return null;
  const unit = parcel.dimension_unit ?? "CM";
  const cm3 = toCm(length, unit) * toCm(width, unit) * toCm(height, unit);
  return roundKg(cm3 / DIM_DIVISOR_CM3_PER_KG);
}

/** What the parcel is charged by: the larger of actual and dimensional weight. */
export function billableWeightKg(parcel: Parcel): number {
  return Math.max(actualWeightKg(parcel), dimensionalWeightKg(parcel) ?? 0);
}
