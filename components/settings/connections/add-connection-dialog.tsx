"use client";

import { useState } from "react";
import { FormProvider, useWatch } from "react-hook-form";
import { Plus } from "lucide-react";
import { FormError, SelectField, TextField } from "@/components/forms/form-fields";
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
  AddConnectionForm,
  addConnectionValues,
  connectionFieldNames,
  connectionFields,
  createBody,
} from "@/lib/client/connection-form";
import { commonConfigHints } from "@/lib/client/connection-settings";
import type { CarrierDeclaration } from "@/lib/schemas/carrier";
import type { Connection } from "@/lib/schemas/connection";
import { SchemaFields } from "./schema-fields";

const BASE_FIELDS = ["carrier_name", "carrier_id", "display_name", "test_mode"] as const;

const MODES = [
  { value: "test", label: "Test" },
  { value: "live", label: "Live" },
];

/** A new connection, its form generated from the chosen carrier's schemas; secrets are sent once and never shown. */
export function AddConnectionDialog({ carriers }: { carriers: CarrierDeclaration[] }) {
  const [open, setOpen] = useState(false);
  const carrierOf = (name: string) => carriers.find((c) => c.carrier_name === name);
  const fieldsFor = (values: { carrier_name: string }) => connectionFields(carrierOf(values.carrier_name));
  // The form as it opens: the first carrier, its fields blank.
  const first = carriers[0]?.carrier_name ?? "";
  const blank = () => addConnectionValues(first, fieldsFor({ carrier_name: first }));
  const { form, onSubmit, formError, pending, reset } = useApiForm({
    schema: AddConnectionForm,
    defaultValues: blank(),
    fields: (values) => connectionFieldNames(fieldsFor(values), BASE_FIELDS),
    request: (values) => apiFetch<Connection>("/v1/connections", { body: createBody(values, fieldsFor(values)) }),
    success: (c) => `Connection “${c.carrier_id}” added.`,
    onSuccess: () => change(false),
  });
  const carrierName = useWatch({ control: form.control, name: "carrier_name" });
  const carrier = carrierOf(carrierName);
  const fields = connectionFields(carrier);

  function change(next: boolean) {
    setOpen(next);
    reset(blank());
  }

  return (
    <Dialog open={open} onOpenChange={change}>
      <DialogTrigger asChild>
        <Button>
          <Plus aria-hidden /> Add connection
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>Add a carrier connection</DialogTitle>
          <DialogDescription>
            Credentials come from the carrier&apos;s developer portal. Secret fields are stored encrypted and never
            shown again.
          </DialogDescription>
        </DialogHeader>
        <FormProvider {...form}>
          <form id="add-connection" className="grid gap-4" noValidate onSubmit={onSubmit}>
            <SelectField
              name="carrier_name"
              label="Carrier"
              required
              options={carriers.map((c) => ({ value: c.carrier_name, label: c.display_name }))}
              // Another carrier's fields: what was typed for the last one does not carry over.
              onChange={(e) =>
                reset({
                  ...addConnectionValues(e.target.value, fieldsFor({ carrier_name: e.target.value })),
                  carrier_id: form.getValues("carrier_id"),
                  display_name: form.getValues("display_name"),
                  test_mode: form.getValues("test_mode"),
                })
              }
            />
            <TextField
              name="carrier_id"
              label="Connection id"
              required
              hint="Your name for it in the API's carrier_ids: letters, digits, '.', '_' or '-' (“ups-main”)."
              maxLength={64}
              autoComplete="off"
            />
            <TextField name="display_name" label="Display name" maxLength={100} autoComplete="off" />
            <SelectField
              name="test_mode"
              label="Mode"
              hint="Test uses the carrier's test environment: nothing bought ships or is billed."
              options={MODES}
            />
            {fields.credentials.length > 0 && (
              <fieldset className="grid gap-4 rounded-md border p-4">
                <legend className="px-1 text-sm font-semibold">Credentials</legend>
                <SchemaFields key={carrierName} group="credentials" fields={fields.credentials} />
              </fieldset>
            )}
            <fieldset className="grid gap-4 rounded-md border p-4">
              <legend className="px-1 text-sm font-semibold">Settings (optional)</legend>
              <SchemaFields
                key={carrierName}
                group="config"
                fields={fields.config}
                hints={carrier ? commonConfigHints(carrier.tracking_budget) : {}}
              />
            </fieldset>
            <FormError>{formError}</FormError>
          </form>
        </FormProvider>
        <DialogFooter>
          <Button type="submit" form="add-connection" loading={pending}>
            Add connection
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
