"use client";

import { useState } from "react";
import { zodResolver } from "@hookform/resolvers/zod";
import { useForm, type DefaultValues, type FieldPath, type FieldValues, type Resolver } from "react-hook-form";
import type { z } from "zod";
import { fieldNames, formProblems } from "@/lib/client/problems";
import { useApiMutation, type ApiMutationOptions } from "./use-api-mutation";

export interface ApiFormOptions<TSchema extends z.ZodType<FieldValues, FieldValues>, TResult> extends Omit<
  ApiMutationOptions<z.output<TSchema>, TResult>,
  "failure"
> {
  /** Checks the values before any request; the route handler's schema where one exists (lib/schemas). */
  schema: TSchema;
  /** The form's values as the server rendered them, so text typed before hydration is kept. */
  defaultValues: DefaultValues<z.input<TSchema>>;
  /**
   * The fields that show an error (default: every path of the values). Name them when an API path must land on a
   * field that shows it whole: a list of checkboxes named `enabled_events` takes `enabled_events[2]`'s problem. A
   * function of the values names them for a form whose fields depend on what was chosen (a carrier's own fields).
   */
  fields?:
    readonly FieldPath<z.input<TSchema>>[] | ((values: z.input<TSchema>) => readonly FieldPath<z.input<TSchema>>[]);
}

/**
 * The dashboard's one way to build a form: react-hook-form checked by a zod schema, sent by useApiMutation, and the
 * API's answer placed where it belongs: each field's problem under its field (with the focus on the first), the rest
 * as one sentence above the submit button (`formError`). Call `reset()` to start over (a dialog being closed).
 */
export function useApiForm<TSchema extends z.ZodType<FieldValues, FieldValues>, TResult>(
  options: ApiFormOptions<TSchema, TResult>,
) {
  type Values = z.input<TSchema>;
  const { schema, defaultValues, fields, ...mutation } = options;
  const form = useForm<Values, unknown, z.output<TSchema>>({
    resolver: zodResolver(schema) as unknown as Resolver<Values, unknown, z.output<TSchema>>,
    defaultValues,
  });
  const [formError, setFormError] = useState<string | null>(null);
  const send = useApiMutation<z.output<TSchema>, TResult>({ ...mutation, failure: "caller" });

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      await send.mutateAsync(values);
    } catch (error) {
      const values = form.getValues();
      const names =
        (typeof fields === "function" ? fields(values) : fields) ?? (fieldNames(values) as FieldPath<Values>[]);
      const placed = formProblems(error, names);
      for (const f of placed.fields) form.setError(f.name, { type: "server", message: f.message });
      if (placed.fields[0]) form.setFocus(placed.fields[0].name);
      setFormError(placed.form);
    }
  });

  function reset(values?: DefaultValues<Values>) {
    form.reset(values ?? defaultValues);
    send.reset();
    setFormError(null);
  }

  return { form, onSubmit, formError, pending: send.isPending, result: send.data, reset };
}
