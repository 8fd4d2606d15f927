"use client";

import { useId } from "react";
import { Controller, useFormContext, useFormState, type UseFormRegisterReturn } from "react-hook-form";
import { Checkbox } from "@/components/ui/checkbox";
import { cn } from "@/components/ui/cn";
import { Field, type FieldControlProps } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { fieldErrorText, type CreateLabelField } from "@/lib/client/create-label/field-paths";
import type { CreateLabelValues } from "@/lib/client/create-label/form-schema";

interface FormFieldProps {
  name: CreateLabelField;
  label: string;
  hint?: React.ReactNode;
  required?: boolean;
  className?: string;
  /** Handed the ids and the registration: `{(p) => <Input {...p} />}`. */
  children: (control: FieldControlProps & UseFormRegisterReturn) => React.ReactNode;
  onChange?: (event: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => void;
}

/** A field of the create-label form: its label, hint and error (from the browser's check or the API's answer). */
function FormField({ name, label, hint, required, className, children, onChange }: FormFieldProps) {
  const { register, getFieldState } = useFormContext<CreateLabelValues>();
  const { error } = getFieldState(name, useFormState({ name }));
  return (
    <Field
      label={label}
      hint={hint}
      required={required}
      className={className}
      error={error?.message ? fieldErrorText(label, error.message) : undefined}
    >
      {(control) => children({ ...control, ...register(name, { onChange }) })}
    </Field>
  );
}

type TextFieldProps = Omit<FormFieldProps, "children"> & Omit<React.ComponentProps<"input">, "name" | "onChange">;

export function TextField({ name, label, hint, required, className, onChange, ...input }: TextFieldProps) {
  return (
    <FormField name={name} label={label} hint={hint} required={required} className={className} onChange={onChange}>
      {(control) => <Input {...input} {...control} />}
    </FormField>
  );
}

type SelectFieldProps = Omit<FormFieldProps, "children"> & {
  options: readonly { value: string; label: string }[];
  placeholder?: string;
};

/** The browser's select: typing a letter jumps to it, which matters in a list of countries or states. */
export function SelectField({ options, placeholder, ...field }: SelectFieldProps) {
  return (
    <FormField {...field}>
      {(control) => (
        <NativeSelect {...control}>
          {placeholder !== undefined && <option value="">{placeholder}</option>}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </NativeSelect>
      )}
    </FormField>
  );
}

type CheckboxFieldProps = Omit<FormFieldProps, "children" | "onChange" | "required"> & {
  name: Extract<CreateLabelField, `${string}.${"certify" | "commercial_invoice" | "residential"}`>;
};

/** A checkbox of the form with its label beside it, and its hint and error under it. */
export function CheckboxField({ name, label, hint, className }: CheckboxFieldProps) {
  const { control, getFieldState } = useFormContext<CreateLabelValues>();
  const { error } = getFieldState(name, useFormState({ name }));
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error?.message ? `${id}-error` : undefined;
  return (
    <div data-slot="field" className={cn("grid gap-1.5", className)}>
      <Controller
        control={control}
        name={name}
        render={({ field }) => (
          <div className="flex items-center gap-2">
            <Checkbox
              id={id}
              ref={field.ref}
              checked={field.value}
              onCheckedChange={(checked) => field.onChange(checked === true)}
              onBlur={field.onBlur}
              aria-describedby={[errorId, hintId].filter(Boolean).join(" ") || undefined}
              aria-invalid={errorId ? true : undefined}
            />
            <Label htmlFor={id} className="font-normal">
              {label}
            </Label>
          </div>
        )}
      />
      {hint && (
        <p id={hintId} className="pl-6 text-xs text-muted-foreground">
          {hint}
        </p>
      )}
      {errorId && (
        <p id={errorId} className="pl-6 text-xs font-medium text-destructive">
          {fieldErrorText(label, error!.message!)}
        </p>
      )}
    </div>
  );
}
