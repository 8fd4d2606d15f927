import { z } from "zod";
import { LABEL_TYPES } from "@/lib/carriers/types";
import { BATCH_FIELDS } from "@/lib/schemas/batch";
import { mappingOf, type ColumnChoice } from "./batch-mapping";
import { AddressForm, type AddressValues } from "./create-label/form-schema";

/**
 * The new-batch form's values: the column chosen for each field (in BATCH_FIELDS' order: a field's name has dots,
 * which react-hook-form would read as nesting), the ship-from, how rates are picked.
 */
export interface NewBatchValues {
  columns: string[];
  shipper: AddressValues;
  rate_policy: "cheapest" | "fastest";
  label_type: (typeof LABEL_TYPES)[number];
  save_mapping: boolean;
}

const NewBatchSchema = z.object({
  columns: z.array(z.string()).length(BATCH_FIELDS.length),
  shipper: AddressForm,
  rate_policy: z.enum(["cheapest", "fastest"]),
  label_type: z.enum(LABEL_TYPES),
  save_mapping: z.boolean(),
});
export type NewBatchOutput = z.output<typeof NewBatchSchema>;
/** Typed by the form's own values, as CreateLabelForm is (the address schema takes looser input). */
export const NewBatchForm = NewBatchSchema as z.ZodType<NewBatchOutput, NewBatchValues>;

/** The form's columns (BATCH_FIELDS' order) as field → column, and back. */
export function choiceOf(columns: readonly string[]): ColumnChoice {
  return Object.fromEntries(BATCH_FIELDS.map((f, i) => [f, columns[i] ?? ""])) as ColumnChoice;
}
export function columnsOf(choice: ColumnChoice): string[] {
  return BATCH_FIELDS.map((f) => choice[f]);
}

/** POST /v1/batches as a form: the file as chosen (its bytes untouched, so the server can name a non-UTF-8 line) and the options. */
export function batchUpload(file: File, values: NewBatchOutput): FormData {
  const form = new FormData();
  form.append("file", file, file.name);
  form.append(
    "options",
    JSON.stringify({
      filename: file.name,
      mapping: mappingOf(choiceOf(values.columns)),
      shipper: values.shipper,
      label_type: values.label_type,
      rate_policy: { kind: values.rate_policy },
    }),
  );
  return form;
}
