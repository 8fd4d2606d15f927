"use client";

import { useMemo, useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { toast } from "sonner";
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
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { ApiProblem, apiFetch } from "@/lib/client/api";
import { COMMON_CONFIG_FIELDS, commonConfigHints } from "@/lib/client/connection-settings";
import { fieldsOf, objectFrom, valuesFrom, type FormValues } from "@/lib/client/schema-form";
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
  onSaved,
}: {
  connection: Connection;
  carrier: CarrierDeclaration | undefined;
  onSaved: () => void;
}) {
  // The API's answer to the last save until the page's refreshed list catches up, so reopening shows what was saved.
  const [saved, setSaved] = useState<Connection | null>(null);
  const connection = saved && saved.id === given.id && saved.updated_at > given.updated_at ? saved : given;
  const credentialFields = useMemo(() => fieldsOf(carrier?.credentials_schema), [carrier]);
  const configFields = useMemo(() => [...fieldsOf(carrier?.config_schema), ...COMMON_CONFIG_FIELDS], [carrier]);
  const initial = () => valuesFrom(configFields, connection.config);
  const [open, setOpen] = useState(false);
  const [displayName, setDisplayName] = useState(connection.display_name);
  const [config, setConfig] = useState<FormValues>(initial);
  const [credentials, setCredentials] = useState<FormValues>({});

  const save = useMutation({
    mutationFn: () => {
      const typed = objectFrom(credentialFields, credentials);
      // Keys this form does not show (set through the API) are kept as they are.
      const hidden = Object.fromEntries(
        Object.entries(connection.config).filter(([k]) => !configFields.some((f) => f.name === k)),
      );
      return apiFetch<Connection>(`/v1/connections/${connection.id}`, {
        method: "PATCH",
        body: {
          display_name: displayName,
          config: { ...hidden, ...objectFrom(configFields, config) },
          ...(Object.keys(typed).length > 0 ? { credentials: typed } : {}),
        },
      });
    },
    onSuccess: (c) => {
      setSaved(c);
      toast.success(`Connection “${connection.carrier_id}” saved.`);
      setOpen(false);
      onSaved();
    },
  });
  const errors = save.error instanceof ApiProblem ? save.error.errors : [];
  const errorAt = (path: string) => errors.find((e) => e.field === path)?.message;

  function change(next: boolean) {
    setOpen(next);
    save.reset();
    setDisplayName(connection.display_name);
    setConfig(initial());
    setCredentials({});
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
        <form
          id={`edit-${connection.id}`}
          className="grid gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate();
          }}
        >
          <Field label="Display name" error={errorAt("display_name")}>
            {(p) => (
              <Input {...p} value={displayName} onChange={(e) => setDisplayName(e.target.value)} maxLength={100} />
            )}
          </Field>
          <fieldset className="grid gap-4 rounded-md border p-4">
            <legend className="px-1 text-sm font-semibold">Settings and refresh budget</legend>
            <SchemaFields
              fields={configFields}
              values={config}
              onChange={(name, v) => setConfig((c) => ({ ...c, [name]: v }))}
              errorOf={(name) => errorAt(`config.${name}`)}
              hints={carrier ? commonConfigHints(carrier.tracking_budget) : {}}
            />
          </fieldset>
          {credentialFields.length > 0 && (
            <fieldset className="grid gap-4 rounded-md border p-4">
              <legend className="px-1 text-sm font-semibold">Replace credentials</legend>
              <p className="text-sm text-muted-foreground">
                Leave every field empty to keep the stored credentials; to replace them, fill in all of them.
              </p>
              <SchemaFields
                fields={credentialFields}
                values={credentials}
                requireAll={false}
                onChange={(name, v) => setCredentials((c) => ({ ...c, [name]: v }))}
                errorOf={(name) => errorAt(`credentials.${name}`)}
              />
            </fieldset>
          )}
          {save.error && errors.every((e) => !e.field) && (
            <p role="alert" className="text-sm text-destructive">
              {save.error.message}
            </p>
          )}
        </form>
        <DialogFooter>
          <Button type="submit" form={`edit-${connection.id}`} loading={save.isPending}>
            Save
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
