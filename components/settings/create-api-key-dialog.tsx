"use client";

import { useState } from "react";
import { FormProvider } from "react-hook-form";
import { KeyRound } from "lucide-react";
import { FormError, SelectField, TextField } from "@/components/forms/form-fields";
import { SecretOnce } from "@/components/forms/secret-once";
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
import { API_VERSIONS, ApiKeyCreate, CURRENT_API_VERSION } from "@/lib/schemas/api-key";

interface Created {
  name: string;
  key: string;
}

const VERSIONS = API_VERSIONS.map((v) => ({ value: v, label: v === CURRENT_API_VERSION ? `${v} (current)` : v }));

/** A new key, shown once with a copy button; closing the dialog forgets it (only its hash is stored). */
export function CreateApiKeyDialog() {
  const [open, setOpen] = useState(false);
  const { form, onSubmit, formError, pending, result, reset } = useApiForm({
    schema: ApiKeyCreate,
    defaultValues: { name: "", api_version: CURRENT_API_VERSION },
    request: (body) => apiFetch<Created>("/v1/api_keys", { body }),
  });

  function change(next: boolean) {
    setOpen(next);
    if (!next) reset();
  }

  return (
    <Dialog open={open} onOpenChange={change}>
      <DialogTrigger asChild>
        <Button>
          <KeyRound aria-hidden /> Create key
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{result ? "Copy your new key" : "Create an API key"}</DialogTitle>
          <DialogDescription>
            {result
              ? "This is the only time the key is shown. Store it in your secrets manager now."
              : "Keys act for the whole organization. Pin the API version your integration was written for."}
          </DialogDescription>
        </DialogHeader>
        {result ? (
          <SecretOnce value={result.key} label="API key" />
        ) : (
          <FormProvider {...form}>
            <form id="create-key" className="grid gap-4" noValidate onSubmit={onSubmit}>
              <TextField
                name="name"
                label="Name"
                required
                hint="Where the key is used: “warehouse-sync”."
                maxLength={100}
              />
              <SelectField name="api_version" label="API version" options={VERSIONS} />
              <FormError>{formError}</FormError>
            </form>
          </FormProvider>
        )}
        <DialogFooter>
          {result ? (
            <Button onClick={() => change(false)}>Done</Button>
          ) : (
            <Button type="submit" form="create-key" loading={pending}>
              Create key
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
