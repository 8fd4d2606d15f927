"use client";

import { useState } from "react";
import { FormProvider } from "react-hook-form";
import { FormError, TextField } from "@/components/forms/form-fields";
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
import {
  EditConnectionForm,
  connectionFieldNames,
  connectionFields,
  editConnectionValues,
  updateBody,
} from "@/lib/client/connection-form";
import { commonConfigHints } from "@/lib/client/connection-settings";
import type { CarrierDeclaration } from "@/lib/schemas/carrier";
import type { Connection } from "@/lib/schemas/connection";
import { SchemaFields } from "./schema-fields";

/**
 * Edits a connection's name, settings and refresh budget; credentials are replaced only when typed again (the API
 * replaces them whole, and never answers the stored ones).
 */
export function EditConnectionDialog({
  connection: given,
  carrier,
}: {
  connection: Connection;
  carrier: CarrierDeclaration | undefined;
}) {
  // The API's answer to the last save until the page's refreshed list catches up, so reopening shows what was saved.
  const [saved, setSaved] = useState<Connection | null>(null);
  const connection = saved && saved.id === given.id && saved.updated_at > given.updated_at ? saved : given;
  const fields = connectionFields(carrier);
  const [open, setOpen] = useState(false);
  const formId = `edit-${connection.id}`;
  const { form, onSubmit, formError, pending, reset } = useApiForm({
    schema: EditConnectionForm,
    defaultValues: editConnectionValues(connection, fields),
    fields: connectionFieldNames(fields, ["display_name"] as const),
    request: (values) =>
      apiFetch<Connection>(`/v1/connections/${connection.id}`, {
        method: "PATCH",
        body: updateBody(values, fields, connection),
      }),
    success: `Connection “${connection.carrier_id}” saved.`,
    onSuccess: (c) => {
      setSaved(c);
      setOpen(false);
    },
  });

  function change(next: boolean) {
    setOpen(next);
    reset(editConnectionValues(connection, fields));
  }

  return (
    <Dialog open={open} onOpenChange={change}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm">
          Edit <span className="sr-only">{connection.carrier_id}</span>
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>Edit {connection.carrier_id}</DialogTitle>
          <DialogDescription>
            {connection.test_mode ? "Test" : "Live"} connection to {carrier?.display_name ?? connection.carrier_name}.
          </DialogDescription>
        </DialogHeader>
        <FormProvider {...form}>
          <form id={formId} className="grid gap-4" noValidate onSubmit={onSubmit}>
            <TextField name="display_name" label="Display name" maxLength={100} autoComplete="off" />
            <fieldset className="grid gap-4 rounded-md border p-4">
              <legend className="px-1 text-sm font-semibold">Settings and refresh budget</legend>
              <SchemaFields
                group="config"
                fields={fields.config}
                hints={carrier ? commonConfigHints(carrier.tracking_budget) : {}}
              />
            </fieldset>
            {fields.credentials.length > 0 && (
              <fieldset className="grid gap-4 rounded-md border p-4">
                <legend className="px-1 text-sm font-semibold">Replace credentials</legend>
                <p className="text-sm text-muted-foreground">
                  Leave every field empty to keep the stored credentials; to replace them, fill in all of them.
                </p>
                <SchemaFields group="credentials" fields={fields.credentials} requireAll={false} />
              </fieldset>
            )}
            <FormError>{formError}</FormError>
          </form>
        </FormProvider>
        <DialogFooter>
          <Button type="submit" form={formId} loading={pending}>
            Save
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
