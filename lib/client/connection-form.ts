import { z } from "zod";
import { COMMON_CONFIG_FIELDS } from "./connection-settings";
import { fieldsOf, objectFrom, valuesFrom } from "./schema-form";
import type { CarrierDeclaration } from "@/lib/schemas/carrier";
import type { Connection } from "@/lib/schemas/connection";

/**
 * The connection dialogs' forms (useApiForm): the carrier's own fields come from its JSON Schemas (schema-form.ts), so
 * the values hold them as text under `credentials` and `config`, and the API, which knows each carrier's rules,
 * checks them; its field errors (`credentials.client_id`) land on the fields of the same name.
 */
const Group = z.record(z.string(), z.string());

export const AddConnectionForm = z.object({
  carrier_name: z.string(),
  carrier_id: z.string(),
  display_name: z.string(),
  test_mode: z.enum(["test", "live"]),
  credentials: Group,
  config: Group,
});
export type AddConnectionValues = z.input<typeof AddConnectionForm>;

export const EditConnectionForm = z.object({ display_name: z.string(), credentials: Group, config: Group });
export type EditConnectionValues = z.input<typeof EditConnectionForm>;

/** A carrier's credential fields, and its settings with the keys every connection takes. */
export function connectionFields(carrier: CarrierDeclaration | undefined) {
  return {
    credentials: fieldsOf(carrier?.credentials_schema),
    config: [...fieldsOf(carrier?.config_schema), ...COMMON_CONFIG_FIELDS],
  };
}
type Fields = ReturnType<typeof connectionFields>;

/** The names the API's problems are placed on (every other path is said above the button). */
export function connectionFieldNames<Base extends string>(
  fields: Fields,
  base: readonly Base[],
): (Base | `credentials.${string}` | `config.${string}`)[] {
  return [
    ...base,
    ...fields.credentials.map((f) => `credentials.${f.name}` as const),
    ...fields.config.map((f) => `config.${f.name}` as const),
  ];
}

export const addConnectionValues = (carrierName: string, fields: Fields): AddConnectionValues => ({
  carrier_name: carrierName,
  carrier_id: "",
  display_name: "",
  test_mode: "test",
  credentials: valuesFrom(fields.credentials),
  config: valuesFrom(fields.config),
});

/** POST /v1/connections's body: empty fields left out, so the carrier's defaults apply. */
export function createBody(values: z.output<typeof AddConnectionForm>, fields: Fields) {
  return {
    carrier_name: values.carrier_name,
    carrier_id: values.carrier_id,
    display_name: values.display_name || null,
    test_mode: values.test_mode === "test",
    credentials: objectFrom(fields.credentials, values.credentials),
    config: objectFrom(fields.config, values.config),
  };
}

/** The stored settings in the form; credentials are never shown, so they start empty. */
export const editConnectionValues = (connection: Connection, fields: Fields): EditConnectionValues => ({
  display_name: connection.display_name,
  credentials: valuesFrom(fields.credentials),
  config: valuesFrom(fields.config, connection.config),
});

/**
 * PATCH /v1/connections/{id}'s body. Config keys the form does not show (set through the API) are kept as they are;
 * credentials are sent only when typed (the API replaces them whole).
 */
export function updateBody(values: z.output<typeof EditConnectionForm>, fields: Fields, connection: Connection) {
  const typed = objectFrom(fields.credentials, values.credentials);
  const hidden = Object.fromEntries(
    Object.entries(connection.config).filter(([k]) => !fields.config.some((f) => f.name === k)),
  );
  return {
    display_name: values.display_name,
    config: { ...hidden, ...objectFrom(fields.config, values.config) },
    ...(Object.keys(typed).length > 0 ? { credentials: typed } : {}),
  };
}
