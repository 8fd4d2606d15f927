import type { parcelPresets } from "@/lib/db/schema";
import type { ParcelPreset, ParcelPresetCreate } from "@/lib/schemas/parcel-preset";
import { formatTimestamp } from "@/lib/timestamp";

export type ParcelPresetRow = typeof parcelPresets.$inferSelect;

/** The one presenter of a parcel preset (docs/api.md, "Parcel presets"). */
export function presentParcelPreset(r: ParcelPresetRow): ParcelPreset {
  return {
    id: r.id,
    object_type: "parcel_preset",
    name: r.name,
    length: r.length,
    width: r.width,
    height: r.height,
    dimension_unit: r.dimensionUnit as ParcelPreset["dimension_unit"],
    weight: r.weight,
    weight_unit: r.weightUnit as ParcelPreset["weight_unit"],
    is_default: r.isDefault,
    created_at: formatTimestamp(r.createdAt),
    updated_at: formatTimestamp(r.updatedAt),
  };
}

export function parcelPresetValues(p: Omit<ParcelPresetCreate, "is_default">) {
  return {
    name: p.name,
    length: p.length,
    width: p.width,
    height: p.height,
    dimensionUnit: p.dimension_unit,
    weight: p.weight,
    weightUnit: p.weight_unit,
  };
}
