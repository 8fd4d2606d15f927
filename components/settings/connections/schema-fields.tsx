"use client";

import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import type { FormFieldSpec, FormValues } from "@/lib/client/schema-form";

/**
 * The controls of a schema-generated form (lib/client/schema-form.ts). `errorOf(name)` is the API's error for the
 * field; `secretHint` explains a masked field (on edit: left empty, the stored secret stays).
 */
export function SchemaFields({
  fields,
  values,
  onChange,
  errorOf,
  hints = {},
  requireAll = true,
  secretHint,
}: {
  fields: FormFieldSpec[];
  values: FormValues;
  onChange: (name: string, value: string | boolean) => void;
  errorOf: (name: string) => string | undefined;
  hints?: Record<string, string>;
  requireAll?: boolean;
  secretHint?: string;
}) {
  return (
    <>
      {fields.map((f) => {
        const value = values[f.name];
        const required = requireAll && f.required;
        const hint = hints[f.name] ?? (f.kind === "secret" ? secretHint : undefined);
        return (
          <Field key={f.name} label={f.label} required={required} error={errorOf(f.name)} hint={hint}>
            {(p) =>
              f.kind === "select" || f.kind === "boolean" ? (
                <NativeSelect
                  {...p}
                  value={value === true ? "true" : value === false ? "false" : (value ?? "")}
                  onChange={(e) =>
                    onChange(
                      f.name,
                      f.kind === "boolean" && e.target.value !== "" ? e.target.value === "true" : e.target.value,
                    )
                  }
                >
                  {!required && <option value="">Default</option>}
                  {(f.kind === "boolean" ? ["true", "false"] : (f.options ?? [])).map((o) => (
                    <option key={o} value={o}>
                      {f.kind === "boolean" ? (o === "true" ? "Yes" : "No") : o}
                    </option>
                  ))}
                </NativeSelect>
              ) : (
                <Input
                  {...p}
                  type={f.kind === "secret" ? "password" : "text"}
                  inputMode={f.kind === "integer" ? "numeric" : f.kind === "number" ? "decimal" : undefined}
                  autoComplete={f.kind === "secret" ? "new-password" : "off"}
                  maxLength={f.maxLength}
                  value={typeof value === "string" ? value : ""}
                  onChange={(e) => onChange(f.name, e.target.value)}
                />
              )
            }
          </Field>
        );
      })}
    </>
  );
}
