"use client";

import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { Check, Copy, KeyRound } from "lucide-react";
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
import { API_VERSIONS, CURRENT_API_VERSION, type ApiVersion } from "@/lib/schemas/api-key";

interface Created {
  name: string;
  key: string;
}

/** A new key, shown once with a copy button; closing the dialog forgets it (only its hash is stored). */
export function CreateApiKeyDialog({ onCreated }: { onCreated: () => void }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [version, setVersion] = useState<ApiVersion>(CURRENT_API_VERSION);
  const [copied, setCopied] = useState(false);
  const create = useMutation({
    mutationFn: () => apiFetch<Created>("/v1/api_keys", { body: { name, api_version: version } }),
    onSuccess: onCreated,
  });
  const fieldError = (field: string) =>
    create.error instanceof ApiProblem ? create.error.errors.find((e) => e.field === field)?.message : undefined;

  function change(next: boolean) {
    setOpen(next);
    if (!next) {
      create.reset();
      setName("");
      setCopied(false);
    }
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
          <DialogTitle>{create.data ? "Copy your new key" : "Create an API key"}</DialogTitle>
          <DialogDescription>
            {create.data
              ? "This is the only time the key is shown. Store it in your secrets manager now."
              : "Keys act for the whole organization. Pin the API version your integration was written for."}
          </DialogDescription>
        </DialogHeader>
        {create.data ? (
          <div className="flex items-center gap-2">
            <code className="min-w-0 flex-1 truncate rounded-md border bg-muted px-3 py-2 font-mono text-sm">
              {create.data.key}
            </code>
            <Button
              variant="outline"
              onClick={async () => {
                await navigator.clipboard.writeText(create.data.key);
                setCopied(true);
              }}
            >
              {copied ? <Check aria-hidden /> : <Copy aria-hidden />} {copied ? "Copied" : "Copy"}
            </Button>
          </div>
        ) : (
          <form
            id="create-key"
            className="grid gap-4"
            onSubmit={(e) => {
              e.preventDefault();
              create.mutate();
            }}
          >
            <Field label="Name" required error={fieldError("name")} hint="Where the key is used: “warehouse-sync”.">
              {(p) => <Input {...p} value={name} onChange={(e) => setName(e.target.value)} maxLength={100} />}
            </Field>
            <Field label="API version" error={fieldError("api_version")}>
              {(p) => (
                <NativeSelect {...p} value={version} onChange={(e) => setVersion(e.target.value as ApiVersion)}>
                  {API_VERSIONS.map((v) => (
                    <option key={v} value={v}>
                      {v}
                      {v === CURRENT_API_VERSION ? " (current)" : ""}
                    </option>
                  ))}
                </NativeSelect>
              )}
            </Field>
            {create.error && !fieldError("name") && !fieldError("api_version") && (
              <p role="alert" className="text-sm text-destructive">
                {create.error.message}
              </p>
            )}
          </form>
        )}
        <DialogFooter>
          {create.data ? (
            <Button onClick={() => change(false)}>Done</Button>
          ) : (
            <Button type="submit" form="create-key" loading={create.isPending}>
              Create key
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
