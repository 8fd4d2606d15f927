import type { DimensionUnit, Parcel, WeightUnit } from "./types";

/**
 * Weights and lengths from the client's unit to the one a carrier takes: one table for every adapter. Each adapter
 * rounds the result to its carrier's precision itself (UPS up to a tenth, DHL to three decimals, ...).
 *
 * Maps, not object literals: a unit is the client's word, and only our own entries may answer for it.
 */

const KG_PER_UNIT: ReadonlyMap<string, number> = new Map([
  ["KG", 1],
  ["LB", 0.45359237], // exact by definition
  ["OZ", 0.028349523125], // 1/16 lb
  ["G", 0.001],
]);

const CM_PER_UNIT: ReadonlyMap<string, number> = new Map([
  ["CM", 1],
  ["IN", 2.54],
]);

export const isWeightUnit = (unit: string): unit is WeightUnit => KG_PER_UNIT.has(unit);
export const isDimensionUnit = (unit: string): unit is DimensionUnit => CM_PER_UNIT.has(unit);

function factor(table: ReadonlyMap<string, number>, unit: string): number {
  const f = table.get(unit);
  // The layer validates units before an adapter runs; one that slipped through is a bug, not a guess.
  if (f === undefined) throw new Error(`unknown unit ${unit}`);
  return f;
}

export function convertWeight(value: number, from: string, to: WeightUnit): number {
  // The same unit is the client's own number, to the last digit (a division could nudge it by float noise).
  if (from === to) return value;
  return (value * factor(KG_PER_UNIT, from)) / factor(KG_PER_UNIT, to);
}

export function convertLength(value: number, from: string, to: DimensionUnit): number {
  if (from === to) return value;
  return (value * factor(CM_PER_UNIT, from)) / factor(CM_PER_UNIT, to);
}

/** One system per shipment, as FedEx and DHL take it: pounds and inches, or kilograms and centimetres. */
export type UnitSystem = "imperial" | "metric";

/** Pounds and inches when the first parcel is weighed in LB or OZ, kilograms and centimetres otherwise. */
export function unitSystemOf(parcels: readonly Parcel[]): UnitSystem {
  const unit = parcels[0]?.weight_unit;
  return unit === "LB" || unit === "OZ" ? "imperial" : "metric";
}

export const weightUnitOf = (system: UnitSystem): "LB" | "KG" => (system === "imperial" ? "LB" : "KG");
export const lengthUnitOf = (system: UnitSystem): "IN" | "CM" => (system === "imperial" ? "IN" : "CM");
