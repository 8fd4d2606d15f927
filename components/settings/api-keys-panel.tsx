"use client";

import { useApiMutation } from "@/components/forms/use-api-mutation";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { apiFetch } from "@/lib/client/api";
import { problemText } from "@/lib/client/problems";
import { FormError } from "@/components/forms/form-fields";
import type { ApiKey } from "@/lib/schemas/api-key";
import { CreateApiKeyDialog } from "./create-api-key-dialog";
import { LocalTime } from "@/components/ui/local-time";

const date = (iso: string | null) => (iso ? <LocalTime timestamp={iso} show="date" /> : "Never");

/** The organization's keys: create (shown once), list, revoke. Every change goes through /v1/api_keys. */
export function ApiKeysPanel({ keys }: { keys: ApiKey[] }) {
  const revoke = useApiMutation({
    request: (id: string) => apiFetch<ApiKey>(`/v1/api_keys/${id}`, { method: "DELETE" }),
    success: (key) => `Key “${key.name}” revoked.`,
    failure: "caller",
  });
  return (
    <section aria-labelledby="keys-heading" className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="keys-heading" className="text-lg font-semibold">
          API keys
        </h2>
        <CreateApiKeyDialog />
      </div>
      <div className="overflow-x-auto rounded-md border">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Name</TableHead>
              <TableHead>Key</TableHead>
              <TableHead>API version</TableHead>
              <TableHead>Created</TableHead>
              <TableHead>Last used</TableHead>
              <TableHead>
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {keys.map((key) => (
              <TableRow key={key.id}>
                <TableCell className="font-medium">{key.name}</TableCell>
                <TableCell className="font-mono text-xs">{key.prefix}…</TableCell>
                <TableCell>{key.api_version}</TableCell>
                <TableCell>{date(key.created_at)}</TableCell>
                <TableCell>{date(key.last_used_at)}</TableCell>
                <TableCell className="text-right">
                  {key.revoked_at ? (
                    <Badge tone="neutral">Revoked {date(key.revoked_at)}</Badge>
                  ) : (
                    <ConfirmDialog
                      trigger={
                        <Button variant="outline" size="sm">
                          Revoke
                        </Button>
                      }
                      title={`Revoke the key “${key.name}”?`}
                      description="Requests with this key stop working at once (other servers notice within 5 seconds). This cannot be undone."
                      confirmLabel={`Revoke key ${key.name}`}
                      onConfirm={async () => {
                        revoke.reset();
                        await revoke.mutateAsync(key.id);
                      }}
                    >
                      <FormError>{revoke.error ? problemText(revoke.error) : null}</FormError>
                    </ConfirmDialog>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </section>
  );
}
