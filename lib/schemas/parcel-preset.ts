import { z } from "zod";
import { DIMENSION_UNITS, WEIGHT_UNITS } from "@/lib/carriers/types";
import { Timestamp } from "./common";
import { PageQuery, pageOf } from "./pagination";

/** docs/api.md, "Parcel presets": an organization's own boxes, and the rate rule the create-label form picks by. */
const upper = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((v) => (typeof v === "string" ? v.trim().toUpperCase() : v), z.enum(values));
const side = z.number().positive().max(10_000);

const presetFields = {
  name: z.string().trim().min(1, "must not be empty").max(100),
  length: side,
  width: side,
  height: side,
  dimension_unit: upper(DIMENSION_UNITS),
  /** The box's usual weight, if it has one (the clerk's typed weight is never overwritten by it). */
  weight: z
    .number()
    .positive()
    .max(100_000)
    .nullish()
    .transform((v) => v ?? null),
  weight_unit: upper(WEIGHT_UNITS)
    .nullish()
    .transform((v) => v ?? null),
  /** Preselected on a blank create-label form; setting it on one preset takes it off the one that had it. */
  is_default: z.boolean().default(false),
};

/** A weight needs its unit and a unit its weight, whether both are given or both left out. */
function weightWithUnit(p: { weight?: number | null; weight_unit?: string | null }, ctx: z.RefinementCtx) {
  const weight = p.weight ?? null;
  const unit = p.weight_unit ?? null;
  if (weight !== null && unit === null) {
    ctx.addIssue({ code: "custom", path: ["weight_unit"], message: "is required when a weight is given" });
  }
  if (unit !== null && weight === null) {
    ctx.addIssue({ code: "custom", path: ["weight"], message: "is required when a weight unit is given" });
  }
}

export const ParcelPresetCreate = z.object(presetFields).superRefine(weightWithUnit).meta({ id: "ParcelPresetCreate" });
export type ParcelPresetCreate = z.output<typeof ParcelPresetCreate>;

/** PATCH: only the fields given change; a weight and its unit change together. */
export const ParcelPresetUpdate = z
  .object({
    name: presetFields.name.optional(),
    length: side.optional(),
    width: side.optional(),
    height: side.optional(),
    dimension_unit: presetFields.dimension_unit.optional(),
    weight: presetFields.weight.optional(),
    weight_unit: presetFields.weight_unit.optional(),
    is_default: z.boolean().optional(),
  })
  .superRefine((p, ctx) => {
    if (("weight" in p && p.weight !== undefined) !== ("weight_unit" in p && p.weight_unit !== undefined)) {
      const missing = p.weight === undefined ? "weight" : "weight_unit";
      ctx.addIssue({ code: "custom", path: [missing], message: "changes together with weight and weight_unit" });
      return;
    }
    weightWithUnit(p, ctx);
  })
  .meta({ id: "ParcelPresetUpdate" });
export type ParcelPresetUpdate = z.output<typeof ParcelPresetUpdate>;

export const ParcelPreset = z
  .object({
    id: z.string(),
    object_type: z.literal("parcel_preset"),
    name: z.string(),
    length: z.number(),
    width: z.number(),
    height: z.number(),
    dimension_unit: z.enum(DIMENSION_UNITS),
    weight: z.number().nullable(),
    weight_unit: z.enum(WEIGHT_UNITS).nullable(),
    is_default: z.boolean(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: "ParcelPreset" });
export type ParcelPreset = z.output<typeof ParcelPreset>;

export const ParcelPresetList = pageOf(ParcelPreset, "ParcelPresetList");

export const ParcelPresetListQuery = PageQuery.strict();
export type ParcelPresetListQuery = z.output<typeof ParcelPresetListQuery>;

// The rate rule

const RATE_RULE_KINDS = ["cheapest", "fastest", "fixed"] as const;

export const RateRulePut = z
  .object({
    kind: z.enum(RATE_RULE_KINDS),
    /** `fixed`: the connection's carrier_id and its service code; ignored (stored as null) for the other kinds. */
    carrier_id: z.string().trim().max(64).nullish(),
    service: z.string().trim().max(100).nullish(),
  })
  .superRefine((r, ctx) => {
    if (r.kind !== "fixed") return;
    if (!r.carrier_id) ctx.addIssue({ code: "custom", path: ["carrier_id"], message: "is required for a fixed rule" });
    if (!r.service) ctx.addIssue({ code: "custom", path: ["service"], message: "is required for a fixed rule" });
  })
  .transform((r) => ({
    kind: r.kind,
    carrier_id: r.kind === "fixed" ? r.carrier_id! : null,
    service: r.kind === "fixed" ? r.service! : null,
  }))
  .meta({ id: "RateRulePut" });
export type RateRulePut = z.output<typeof RateRulePut>;

export const RateRule = z
  .object({
    kind: z.enum(RATE_RULE_KINDS),
    carrier_id: z.string().nullable(),
    service: z.string().nullable(),
    /** When it was last saved; null while the organization keeps the default (cheapest). */
    updated_at: Timestamp.nullable(),
  })
  .meta({ id: "RateRule" });
export type RateRule = z.output<typeof RateRule>;
