"use client";

import { useMemo, useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { Plus } from "lucide-react";
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
import { NativeSelect } from "@/components/ui/native-select";
import { ApiProblem, apiFetch } from "@/lib/client/api";
import { COMMON_CONFIG_FIELDS, commonConfigHints } from "@/lib/client/connection-settings";
import { fieldsOf, objectFrom, type FormValues } from "@/lib/client/schema-form";
import type { CarrierDeclaration } from "@/lib/schemas/carrier";
import type { Connection } from "@/lib/schemas/connection";
import { SchemaFields } from "./schema-fields";

/** A new connection, its form generated from the chosen carrier's schemas; secrets are sent once and never shown. */
export function AddConnectionDialog({
  carriers,
  onCreated,
}: {
  carriers: CarrierDeclaration[];
  onCreated: () => void;
}) {
  const [open, setOpen] = useState(false);
  const [carrierName, setCarrierName] = useState(carriers[0]?.carrier_name ?? "");
  const [carrierId, setCarrierId] = useState("");
  const [displayName, setDisplayName] = useState("");
  const [testMode, setTestMode] = useState(true);
  const [credentials, setCredentials] = useState<FormValues>({});
  const [config, setConfig] = useState<FormValues>({});
  const carrier = carriers.find((c) => c.carrier_name === carrierName);
  const credentialFields = useMemo(() => fieldsOf(carrier?.credentials_schema), [carrier]);
  const configFields = useMemo(() => [...fieldsOf(carrier?.config_schema), ...COMMON_CONFIG_FIELDS], [carrier]);

  const create = useMutation({
    mutationFn: () =>
      apiFetch<Connection>("/v1/connections", {
        body: {
          carrier_name: carrierName,
          carrier_id: carrierId,
          display_name: displayName || null,
          test_mode: testMode,
          credentials: objectFrom(credentialFields, credentials),
          config: objectFrom(configFields, config),
        },
      }),
    onSuccess: (c) => {
      toast.success(`Connection “${c.carrier_id}” added.`);
      change(false);
      onCreated();
    },
  });
  const errors = create.error instanceof ApiProblem ? create.error.errors : [];
  const errorAt = (path: string) => errors.find((e) => e.field === path)?.message;
  const unplaced = create.error
    ? errors.length === 0
      ? [create.error.message]
      : errors
          .filter((e) => {
            const [head, key] = (e.field ?? "").split(".");
            if (head === "carrier_id" || head === "display_name") return false;
            if (head === "credentials") return !credentialFields.some((f) => f.name === key);
            if (head === "config") return !configFields.some((f) => f.name === key);
            return true;
          })
          .map((e) => (e.field ? `${e.field}: ${e.message}` : e.message))
    : [];

  function change(next: boolean) {
    setOpen(next);
    if (!next) {
      create.reset();
      setCarrierId("");
      setDisplayName("");
      setTestMode(true);
      setCredentials({});
      setConfig({});
    }
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
        <form
          id="add-connection"
          className="grid gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate();
          }}
        >
          <Field label="Carrier" required>
            {(p) => (
              <NativeSelect
                {...p}
                value={carrierName}
                onChange={(e) => {
                  setCarrierName(e.target.value);
                  setCredentials({});
                  setConfig({});
                  create.reset();
                }}
              >
                {carriers.map((c) => (
                  <option key={c.carrier_name} value={c.carrier_name}>
                    {c.display_name}
                  </option>
                ))}
              </NativeSelect>
            )}
          </Field>
          <Field
            label="Connection id"
            required
            error={errorAt("carrier_id")}
            hint="Your name for it in the API's carrier_ids: letters, digits, '.', '_' or '-' (“ups-main”)."
          >
            {(p) => <Input {...p} value={carrierId} onChange={(e) => setCarrierId(e.target.value)} maxLength={64} />}
          </Field>
          <Field label="Display name" error={errorAt("display_name")}>
            {(p) => (
              <Input {...p} value={displayName} onChange={(e) => setDisplayName(e.target.value)} maxLength={100} />
            )}
          </Field>
          <Field label="Mode" hint="Test uses the carrier's test environment: nothing bought ships or is billed.">
            {(p) => (
              <NativeSelect
                {...p}
                value={testMode ? "test" : "live"}
                onChange={(e) => setTestMode(e.target.value === "test")}
              >
                <option value="test">Test</option>
                <option value="live">Live</option>
              </NativeSelect>
            )}
          </Field>
          {credentialFields.length > 0 && (
            <fieldset className="grid gap-4 rounded-md border p-4">
              <legend className="px-1 text-sm font-semibold">Credentials</legend>
              <SchemaFields
                fields={credentialFields}
                values={credentials}
                onChange={(name, v) => setCredentials((c) => ({ ...c, [name]: v }))}
                errorOf={(name) => errorAt(`credentials.${name}`)}
              />
            </fieldset>
          )}
          <fieldset className="grid gap-4 rounded-md border p-4">
            <legend className="px-1 text-sm font-semibold">Settings (optional)</legend>
            <SchemaFields
              fields={configFields}
              values={config}
              onChange={(name, v) => setConfig((c) => ({ ...c, [name]: v }))}
              errorOf={(name) => errorAt(`config.${name}`)}
              hints={carrier ? commonConfigHints(carrier.tracking_budget) : {}}
            />
          </fieldset>
          {unplaced.length > 0 && (
            <div role="alert" className="grid gap-1 text-sm text-destructive">
              {unplaced.map((m) => (
                <p key={m}>{m}</p>
              ))}
            </div>
          )}
        </form>
        <DialogFooter>
          <Button type="submit" form="add-connection" loading={create.isPending}>
            Add connection
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
