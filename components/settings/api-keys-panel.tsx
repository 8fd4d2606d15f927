"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { useMutation } from "@tanstack/react-query";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { apiFetch } from "@/lib/client/api";
import type { ApiKey } from "@/lib/schemas/api-key";
import { CreateApiKeyDialog } from "./create-api-key-dialog";

const day = new Intl.DateTimeFormat("en", { dateStyle: "medium" });
const date = (iso: string | null) => (iso ? day.format(new Date(iso)) : "Never");

/** The organization's keys: create (shown once), list, revoke. Every change goes through /v1/api_keys. */
export function ApiKeysPanel({ keys }: { keys: ApiKey[] }) {
  const router = useRouter();
  const [problem, setProblem] = useState<string | null>(null);
  const revoke = useMutation({
    mutationFn: (id: string) => apiFetch<ApiKey>(`/v1/api_keys/${id}`, { method: "DELETE" }),
    onSuccess: (key) => {
      toast.success(`Key “${key.name}” revoked.`);
      router.refresh();
    },
    onError: (err) => setProblem(err.message),
  });
  return (
    <section aria-labelledby="keys-heading" className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="keys-heading" className="text-lg font-semibold">
          API keys
        </h2>
        <CreateApiKeyDialog onCreated={() => router.refresh()} />
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
                        setProblem(null);
                        await revoke.mutateAsync(key.id);
                      }}
                    >
                      {problem && (
                        <p role="alert" className="text-sm text-destructive">
                          {problem}
                        </p>
                      )}
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
