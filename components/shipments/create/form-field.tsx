"use client";

import { useFormContext, useFormState, type UseFormRegisterReturn } from "react-hook-form";
import { Field, type FieldControlProps } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
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
