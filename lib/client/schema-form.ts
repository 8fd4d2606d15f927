/**
 * A form from a carrier's JSON Schema (GET /v1/carriers: `credentials_schema`, `config_schema`), so a connection form
 * needs no code per carrier. Strings, enums (a select), booleans and numbers; `writeOnly` strings are secrets (masked,
 * never prefilled). Other shapes (arrays, objects) are not offered here: they are set through the API.
 */
type FieldKind = "text" | "secret" | "select" | "boolean" | "integer" | "number";

export interface FormFieldSpec {
  name: string;
  label: string;
  kind: FieldKind;
  required: boolean;
  options?: string[];
  min?: number;
  max?: number;
  maxLength?: number;
  pattern?: string;
}

type JsonSchema = {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  writeOnly?: boolean;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  pattern?: string;
  title?: string;
};

/** `client_secret` → "Client secret". */
function labelOf(name: string): string {
  const words = name.replace(/_/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function kindOf(s: JsonSchema): FieldKind | null {
  if (Array.isArray(s.enum) && s.enum.every((v) => typeof v === "string")) return "select";
  if (s.type === "string") return s.writeOnly ? "secret" : "text";
  if (s.type === "boolean") return "boolean";
  if (s.type === "integer") return "integer";
  if (s.type === "number") return "number";
  return null;
}

/** The fields a schema's properties make, in the schema's order; properties of other shapes are left out. */
export function fieldsOf(schema: unknown): FormFieldSpec[] {
  const s = (schema ?? {}) as JsonSchema;
  const required = new Set(s.required ?? []);
  return Object.entries(s.properties ?? {}).flatMap(([name, prop]) => {
    const kind = kindOf(prop);
    if (!kind) return [];
    return [
      {
        name,
        label: prop.title ?? labelOf(name),
        kind,
        required: required.has(name),
        ...(kind === "select" ? { options: prop.enum as string[] } : {}),
        ...(prop.minimum !== undefined ? { min: prop.minimum } : {}),
        ...(prop.maximum !== undefined ? { max: prop.maximum } : {}),
        ...(prop.maxLength !== undefined ? { maxLength: prop.maxLength } : {}),
        ...(prop.pattern !== undefined ? { pattern: prop.pattern } : {}),
      },
    ];
  });
}

/** What the form holds per field: text, "" when not set (a boolean is "true" or "false", as its select says). */
export type FormValues = Record<string, string>;

/** The form's values from an object (a connection's config); secrets are never prefilled. */
export function valuesFrom(fields: FormFieldSpec[], source: Record<string, unknown> = {}): FormValues {
  return Object.fromEntries(
    fields.map((f) => {
      const v = source[f.name];
      if (f.kind === "secret" || v === undefined || v === null) return [f.name, ""];
      if (f.kind === "boolean") return [f.name, typeof v === "boolean" ? String(v) : ""];
      return [f.name, String(v)];
    }),
  );
}

/**
 * The object to send: text trimmed, numbers as numbers (text the API then refuses stays text, so the API's field error
 * shows), booleans as chosen; fields left empty are left out, so the carrier's defaults apply.
 */
export function objectFrom(fields: FormFieldSpec[], values: FormValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = values[f.name];
    if (v === "" || v === undefined) continue;
    if (f.kind === "boolean") out[f.name] = v === "true";
    else if (f.kind === "integer" || f.kind === "number") {
      const n = Number(v.trim());
      out[f.name] = v.trim() !== "" && Number.isFinite(n) ? n : v;
    } else out[f.name] = f.kind === "secret" ? v : v.trim();
  }
  return out;
}
