"use client";

import { useState } from "react";
import { FormProvider } from "react-hook-form";
import { CheckboxField, FormError, SelectField, TextField } from "@/components/forms/form-fields";
import { useApiForm } from "@/components/forms/use-api-form";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import { apiFetch } from "@/lib/client/api";
import { PresetForm, presetFormValues } from "@/lib/client/parcel-preset-form";
import type { ParcelPreset } from "@/lib/schemas/parcel-preset";

const DIMENSION_UNITS = [
  { value: "IN", label: "in" },
  { value: "CM", label: "cm" },
];
const WEIGHT_UNITS = [
  { value: "LB", label: "lb" },
  { value: "OZ", label: "oz" },
  { value: "KG", label: "kg" },
  { value: "G", label: "g" },
];

/** Adds a preset (`POST /v1/parcel_presets`) or changes one (`PATCH /v1/parcel_presets/{id}`). */
export function PresetDialog({ preset, trigger }: { preset: ParcelPreset | null; trigger: React.ReactNode }) {
  const [open, setOpen] = useState(false);
  const formId = `preset-form-${preset?.id ?? "new"}`;
  const { form, onSubmit, formError, pending, reset } = useApiForm({
    schema: PresetForm,
    defaultValues: presetFormValues(preset),
    request: (body) =>
      preset
        ? apiFetch<ParcelPreset>(`/v1/parcel_presets/${preset.id}`, { method: "PATCH", body })
        : apiFetch<ParcelPreset>("/v1/parcel_presets", { method: "POST", body }),
    success: (saved) => (preset ? `Saved ${saved.name}.` : `Added ${saved.name}.`),
    onSuccess: () => change(false),
  });

  /** Opened or closed, the form starts from the preset as it is now (or blank): nothing of the last entry stays. */
  function change(next: boolean) {
    setOpen(next);
    reset(presetFormValues(preset));
  }

  return (
    <Dialog open={open} onOpenChange={change}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{preset ? `Edit ${preset.name}` : "Add a parcel preset"}</DialogTitle>
          <DialogDescription>
            The create-label form fills the parcel&apos;s size from it, and its weight when none is typed.
          </DialogDescription>
        </DialogHeader>
        <FormProvider {...form}>
          <form id={formId} className="grid gap-4" noValidate onSubmit={onSubmit}>
            <TextField name="name" label="Name" required autoComplete="off" maxLength={100} />
            <div className="grid grid-cols-3 items-start gap-3 sm:grid-cols-[repeat(3,minmax(0,1fr))_5.5rem]">
              <TextField name="length" label="Length" required inputMode="decimal" autoComplete="off" />
              <TextField name="width" label="Width" required inputMode="decimal" autoComplete="off" />
              <TextField name="height" label="Height" required inputMode="decimal" autoComplete="off" />
              <SelectField name="dimension_unit" label="Size unit" options={DIMENSION_UNITS} />
            </div>
            <div className="grid grid-cols-[minmax(0,1fr)_5.5rem] items-start gap-3 sm:max-w-xs">
              <TextField
                name="weight"
                label="Weight"
                hint="Optional: the box's usual weight."
                inputMode="decimal"
                autoComplete="off"
              />
              <SelectField name="weight_unit" label="Weight unit" options={WEIGHT_UNITS} />
            </div>
            <CheckboxField
              name="is_default"
              label="Default preset"
              hint="Fills the parcel of every new label; another preset that was the default stops being it."
            />
            <FormError>{formError}</FormError>
          </form>
        </FormProvider>
        <DialogFooter>
          <Button type="submit" form={formId} loading={pending}>
            {preset ? "Save preset" : "Add preset"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
