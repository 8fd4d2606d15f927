import { z } from "zod";
import { DIMENSION_UNITS, WEIGHT_UNITS } from "@/lib/carriers/types";
import type { ParcelPreset, ParcelPresetCreate, RateRule } from "@/lib/schemas/parcel-preset";
import { numberFromText } from "./create-label/number-text";

/**
 * The Settings forms for parcel presets and the rate rule: what a person types (text in number fields), checked
 * here, then sent as the API's body (lib/schemas/parcel-preset.ts checks it again and names the same fields).
 */
const amount = (required: boolean) =>
  z.string().superRefine((text, ctx) => {
    const n = numberFromText(text);
    if (n === null) {
      if (required) ctx.addIssue({ code: "custom", message: "must not be empty" });
    } else if (Number.isNaN(n)) ctx.addIssue({ code: "custom", message: "must be a number" });
    else if (n <= 0) ctx.addIssue({ code: "custom", message: "must be more than 0" });
  });

export const PresetForm = z
  .object({
    name: z.string().trim().min(1, "must not be empty").max(100),
    length: amount(true),
    width: amount(true),
    height: amount(true),
    dimension_unit: z.enum(DIMENSION_UNITS),
    weight: amount(false),
    weight_unit: z.enum(WEIGHT_UNITS),
    is_default: z.boolean(),
  })
  .transform((v): ParcelPresetCreate => ({
    name: v.name,
    length: numberFromText(v.length)!,
    width: numberFromText(v.width)!,
    height: numberFromText(v.height)!,
    dimension_unit: v.dimension_unit,
    // The unit select always has a value: it is sent only with a weight.
    weight: numberFromText(v.weight),
    weight_unit: numberFromText(v.weight) === null ? null : v.weight_unit,
    is_default: v.is_default,
  }));
type PresetFormValues = z.input<typeof PresetForm>;

export function presetFormValues(preset: ParcelPreset | null): PresetFormValues {
  return {
    name: preset?.name ?? "",
    length: preset ? String(preset.length) : "",
    width: preset ? String(preset.width) : "",
    height: preset ? String(preset.height) : "",
    dimension_unit: preset?.dimension_unit ?? "IN",
    weight: preset?.weight ? String(preset.weight) : "",
    weight_unit: preset?.weight_unit ?? "LB",
    is_default: preset?.is_default ?? false,
  };
}

/** A fixed rule's connection and service as one select's value. */
const SEPARATOR = " ";
export const fixedChoice = (carrierId: string, service: string) => `${carrierId}${SEPARATOR}${service}`;

export const RuleForm = z
  .object({ kind: z.enum(["cheapest", "fastest", "fixed"]), fixed: z.string() })
  .superRefine((v, ctx) => {
    if (v.kind === "fixed" && !v.fixed) ctx.addIssue({ code: "custom", path: ["fixed"], message: "must be chosen" });
  })
  .transform((v) => {
    if (v.kind !== "fixed") return { kind: v.kind, carrier_id: null, service: null };
    const [carrier_id, service] = v.fixed.split(SEPARATOR);
    return { kind: v.kind, carrier_id: carrier_id!, service: service! };
  });
type RuleFormValues = z.input<typeof RuleForm>;

export const ruleFormValues = (rule: RateRule): RuleFormValues => ({
  kind: rule.kind,
  fixed: rule.kind === "fixed" && rule.carrier_id && rule.service ? fixedChoice(rule.carrier_id, rule.service) : "",
});
