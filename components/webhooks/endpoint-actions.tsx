"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { useMutation } from "@tanstack/react-query";
import { Send } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { apiFetch } from "@/lib/client/api";
import type { WebhookEndpoint } from "@/lib/schemas/webhook";
import type { WebhookAttempt } from "@/lib/schemas/webhook-delivery";
import { EndpointFormDialog } from "./endpoint-form-dialog";

/** An owner's or admin's buttons on one endpoint: send a test ping, edit, enable or disable, delete. */
export function EndpointActions({ endpoint }: { endpoint: WebhookEndpoint }) {
  const router = useRouter();
  const [problem, setProblem] = useState<string | null>(null);
  const ping = useMutation({
    mutationFn: () => apiFetch<WebhookAttempt>(`/v1/webhooks/${endpoint.id}/test`, { method: "POST" }),
    onSuccess: () => router.refresh(),
  });
  const toggle = useMutation({
    mutationFn: () =>
      apiFetch<WebhookEndpoint>(`/v1/webhooks/${endpoint.id}`, {
        method: "PATCH",
        body: { enabled: !endpoint.enabled },
      }),
    onSuccess: (saved) => {
      toast.success(saved.enabled ? "Endpoint enabled." : "Endpoint disabled.");
      router.refresh();
    },
    onError: (err) => toast.error(err.message),
  });
  const remove = useMutation({
    mutationFn: () => apiFetch<WebhookEndpoint>(`/v1/webhooks/${endpoint.id}`, { method: "DELETE" }),
    onSuccess: () => {
      toast.success("Endpoint deleted.");
      router.push("/settings/webhooks");
      router.refresh();
    },
    onError: (err) => setProblem(err.message),
  });
  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap gap-2">
        <Button size="sm" onClick={() => ping.mutate()} loading={ping.isPending}>
          <Send aria-hidden /> Send test event
        </Button>
        <EndpointFormDialog endpoint={endpoint} onSaved={() => router.refresh()} />
        <Button variant="outline" size="sm" onClick={() => toggle.mutate()} loading={toggle.isPending}>
          {endpoint.enabled ? "Disable" : "Enable"}
        </Button>
        <ConfirmDialog
          trigger={
            <Button variant="outline" size="sm">
              Delete
            </Button>
          }
          title="Delete this webhook endpoint?"
          description="Nothing more is sent to it; its pending deliveries and its delivery log are deleted with it. The events stay."
          confirmLabel="Delete endpoint"
          onConfirm={async () => {
            setProblem(null);
            await remove.mutateAsync();
          }}
        >
          {problem && (
            <p role="alert" className="text-sm text-destructive">
              {problem}
            </p>
          )}
        </ConfirmDialog>
      </div>
      <div aria-live="polite">
        {ping.error && (
          <p role="alert" className="text-sm text-destructive">
            {ping.error.message}
          </p>
        )}
        {ping.data && <TestResult attempt={ping.data} />}
      </div>
    </div>
  );
}

function TestResult({ attempt }: { attempt: WebhookAttempt }) {
  return (
    <div className="grid gap-1 rounded-md border p-3 text-sm" data-testid="test-result">
      <p className={attempt.succeeded ? "font-medium text-success" : "font-medium text-destructive"}>
        Test event {attempt.succeeded ? "delivered" : "failed"}: {attempt.status_code ?? "no answer"}
        {attempt.error_class ? ` (${attempt.error_class})` : ""} in {attempt.duration_ms} ms
      </p>
      {attempt.response_excerpt && (
        <pre className="max-h-32 overflow-auto rounded bg-muted p-2 font-mono text-xs whitespace-pre-wrap">
          {attempt.response_excerpt}
        </pre>
      )}
    </div>
  );
}
