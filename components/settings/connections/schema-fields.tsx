"use client";

import { SelectField, TextField } from "@/components/forms/form-fields";
import type { FormFieldSpec } from "@/lib/client/schema-form";

const YES_NO = [
  { value: "true", label: "Yes" },
  { value: "false", label: "No" },
];

/**
 * The controls of a schema-generated group of the form around it (`credentials` or `config`, lib/client/schema-form.ts),
 * each registered as `group.name` so the API's error for it lands under it. `secretHint` explains a masked field (on
 * edit: left empty, the stored secret stays).
 */
export function SchemaFields({
  group,
  fields,
  hints = {},
  requireAll = true,
  secretHint,
}: {
  group: "credentials" | "config";
  fields: FormFieldSpec[];
  hints?: Record<string, string>;
  requireAll?: boolean;
  secretHint?: string;
}) {
  return (
    <>
      {fields.map((f) => {
        const required = requireAll && f.required;
        const common = {
          name: `${group}.${f.name}`,
          label: f.label,
          required,
          hint: hints[f.name] ?? (f.kind === "secret" ? secretHint : undefined),
        };
        return f.kind === "select" || f.kind === "boolean" ? (
          <SelectField
            key={f.name}
            {...common}
            placeholder={required ? undefined : "Default"}
            options={f.kind === "boolean" ? YES_NO : (f.options ?? []).map((o) => ({ value: o, label: o }))}
          />
        ) : (
          <TextField
            key={f.name}
            {...common}
            type={f.kind === "secret" ? "password" : "text"}
            inputMode={f.kind === "integer" ? "numeric" : f.kind === "number" ? "decimal" : undefined}
            autoComplete={f.kind === "secret" ? "new-password" : "off"}
            maxLength={f.maxLength}
          />
        );
      })}
    </>
  );
}
