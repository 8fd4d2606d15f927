"use client";

import { useId } from "react";
import {
  Controller,
  useFormContext,
  useFormState,
  get,
  type FieldPath,
  type FieldValues,
  type UseFormRegisterReturn,
} from "react-hook-form";
import { Checkbox } from "@/components/ui/checkbox";
import { cn } from "@/components/ui/cn";
import { Field, type FieldControlProps, type FieldProps } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { fieldErrorText } from "@/lib/client/problems";

interface FormFieldProps<T extends FieldValues> {
  name: FieldPath<T>;
  label: string;
  hint?: React.ReactNode;
  required?: boolean;
  className?: string;
  /** A finding about the value beside the form's own error (an address check's message): Field's `notice`. */
  notice?: FieldProps["notice"];
  /** Handed the ids and the registration: `{(p) => <Input {...p} />}`. */
  children: (control: FieldControlProps & UseFormRegisterReturn & { defaultValue?: string }) => React.ReactNode;
  onChange?: (event: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => void;
}

/**
 * A field of the form around it (react-hook-form's FormProvider): its label, hint and error, from the schema's check
 * or the API's answer (useApiForm), read as a sentence about the field.
 */
function FormField<T extends FieldValues>({
  name,
  label,
  hint,
  required,
  className,
  notice,
  children,
  onChange,
}: FormFieldProps<T>) {
  const { register, getFieldState, formState } = useFormContext<T>();
  const { error } = getFieldState(name, useFormState({ name }));
  const registration = register(name, { onChange });
  /**
   * Rendered into the server's HTML, so the page shows its defaults (a saved ship-from) before any script runs, and
   * text typed before hydration is typed over them rather than put after a default filled in later. React 19 hands
   * what was typed to the field's onChange once it hydrates (e2e/drafts.spec.ts types on a throttled line).
   */
  const defaultValue = get(formState.defaultValues, name) as string | undefined;
  return (
    <Field
      label={label}
      hint={hint}
      required={required}
      className={className}
      notice={notice}
      error={error?.message ? fieldErrorText(label, error.message) : undefined}
    >
      {(control) => children({ ...control, ...registration, defaultValue })}
    </Field>
  );
}

export type TextFieldProps<T extends FieldValues> = Omit<FormFieldProps<T>, "children"> &
  Omit<React.ComponentProps<"input">, "name" | "onChange">;

export function TextField<T extends FieldValues>({
  name,
  label,
  hint,
  required,
  className,
  notice,
  onChange,
  ...input
}: TextFieldProps<T>) {
  return (
    <FormField<T>
      name={name}
      label={label}
      hint={hint}
      required={required}
      className={className}
      notice={notice}
      onChange={onChange}
    >
      {(control) => <Input {...input} {...control} />}
    </FormField>
  );
}

export type SelectFieldProps<T extends FieldValues> = Omit<FormFieldProps<T>, "children"> & {
  options: readonly { value: string; label: string }[];
  placeholder?: string;
};

/** The browser's select: typing a letter jumps to it, which matters in a list of countries or states. */
export function SelectField<T extends FieldValues>({ options, placeholder, ...field }: SelectFieldProps<T>) {
  return (
    <FormField<T> {...field}>
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

export type CheckboxFieldProps<T extends FieldValues> = Omit<FormFieldProps<T>, "children" | "onChange" | "required">;

/** A checkbox (a boolean field) of the form with its label beside it, and its hint and error under it. */
export function CheckboxField<T extends FieldValues>({ name, label, hint, className }: CheckboxFieldProps<T>) {
  const { control, getFieldState } = useFormContext<T>();
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

/** What a form could not place on a field (useApiForm's `formError`), announced when it appears. */
export function FormError({ children }: { children: React.ReactNode }) {
  if (!children) return null;
  return (
    <p role="alert" className="text-sm text-destructive">
      {children}
    </p>
  );
}
