"use client";

import { useId } from "react";
import { useFormContext, useWatch } from "react-hook-form";
import { Card } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import type { CreateLabelValues, ParcelValues } from "@/lib/client/create-label/form-schema";
import {
  BUILT_IN_PRESETS,
  matchingPreset,
  presetChanges,
  presetLabel,
  type ParcelPreset,
} from "@/lib/client/create-label/parcel-presets";
import { SelectField, TextField } from "./form-field";

export const WEIGHT_UNIT_OPTIONS = [
  { value: "LB", label: "lb" },
  { value: "OZ", label: "oz" },
  { value: "KG", label: "kg" },
  { value: "G", label: "g" },
];
const DIMENSION_UNITS = [
  { value: "IN", label: "in" },
  { value: "CM", label: "cm" },
];

/**
 * The parcel: a preset (the organization's own, then the built-in ones) fills in the box's dimensions, and its weight
 * when none is typed; the weight is typed (or, later, read from the scale).
 */
export function ParcelFieldset({ own }: { own: readonly ParcelPreset[] }) {
  const { control, getValues, setValue, formState } = useFormContext<CreateLabelValues>();
  const parcel = useWatch({ control, name: "parcels.0" });
  const presets = [...own, ...BUILT_IN_PRESETS];
  const preset = matchingPreset(presets, parcel);
  const presetId = useId();

  function choosePreset(event: React.ChangeEvent<HTMLSelectElement>) {
    const chosen = presets.find((p) => p.id === event.target.value);
    if (!chosen) return;
    // Re-checked at once after a failed submit, so a dimension error goes away as the preset fixes it.
    const options = { shouldDirty: true, shouldValidate: formState.isSubmitted };
    for (const [key, value] of Object.entries(presetChanges(chosen, getValues("parcels.0")))) {
      setValue(`parcels.0.${key as keyof ParcelValues}`, value, options);
    }
  }
  const option = (p: ParcelPreset) => (
    <option key={p.id} value={p.id}>
      {presetLabel(p)}
    </option>
  );

  return (
    <Card>
      <fieldset className="@container grid gap-4 p-4">
        <legend className="mb-1 text-base font-semibold">Parcel</legend>
        <div className="grid gap-1.5">
          <Label htmlFor={presetId}>Package</Label>
          <NativeSelect id={presetId} value={preset?.id ?? ""} onChange={choosePreset}>
            <option value="">Custom dimensions</option>
            {own.length > 0 ? (
              <>
                <optgroup label="Your organization's">{own.map(option)}</optgroup>
                <optgroup label="Common sizes">{BUILT_IN_PRESETS.map(option)}</optgroup>
              </>
            ) : (
              BUILT_IN_PRESETS.map(option)
            )}
          </NativeSelect>
        </div>
        <div className="grid grid-cols-[minmax(0,1fr)_6rem] items-start gap-4 @sm:max-w-sm">
          <TextField name="parcels.0.weight" label="Weight" required inputMode="decimal" autoComplete="off" />
          <SelectField name="parcels.0.weight_unit" label="Weight unit" options={WEIGHT_UNIT_OPTIONS} />
        </div>
        <div className="grid grid-cols-3 items-start gap-4 @md:grid-cols-[repeat(3,minmax(0,1fr))_6rem]">
          <TextField name="parcels.0.length" label="Length" inputMode="decimal" autoComplete="off" />
          <TextField name="parcels.0.width" label="Width" inputMode="decimal" autoComplete="off" />
          <TextField name="parcels.0.height" label="Height" inputMode="decimal" autoComplete="off" />
          <SelectField name="parcels.0.dimension_unit" label="Size unit" options={DIMENSION_UNITS} />
        </div>
      </fieldset>
    </Card>
  );
}
