"use client";

import { useRouter } from "next/navigation";
import { Send } from "lucide-react";
import { FormError } from "@/components/forms/form-fields";
import { useApiMutation } from "@/components/forms/use-api-mutation";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { apiFetch } from "@/lib/client/api";
import { problemText } from "@/lib/client/problems";
import type { WebhookEndpoint } from "@/lib/schemas/webhook";
import type { WebhookAttempt } from "@/lib/schemas/webhook-delivery";
import { EndpointFormDialog } from "./endpoint-form-dialog";

/** An owner's or admin's buttons on one endpoint: send a test ping, edit, enable or disable, delete. */
export function EndpointActions({ endpoint }: { endpoint: WebhookEndpoint }) {
  const router = useRouter();
  const path = `/v1/webhooks/${endpoint.id}`;
  // The attempt is shown below the buttons rather than in a toast: its answer's excerpt is what the admin reads.
  const ping = useApiMutation({
    request: () => apiFetch<WebhookAttempt>(`${path}/test`, { method: "POST" }),
    failure: "caller",
  });
  const toggle = useApiMutation({
    request: () => apiFetch<WebhookEndpoint>(path, { method: "PATCH", body: { enabled: !endpoint.enabled } }),
    success: (saved) => (saved.enabled ? "Endpoint enabled." : "Endpoint disabled."),
  });
  const remove = useApiMutation({
    request: () => apiFetch<WebhookEndpoint>(path, { method: "DELETE" }),
    success: "Endpoint deleted.",
    failure: "caller",
    onSuccess: () => router.push("/settings/webhooks"),
  });
  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap gap-2">
        <Button size="sm" onClick={() => ping.mutate()} loading={ping.isPending}>
          <Send aria-hidden /> Send test event
        </Button>
        <EndpointFormDialog endpoint={endpoint} />
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
            remove.reset();
            await remove.mutateAsync();
          }}
        >
          <FormError>{remove.error ? problemText(remove.error) : null}</FormError>
        </ConfirmDialog>
      </div>
      <div aria-live="polite">
        <FormError>{ping.error ? problemText(ping.error) : null}</FormError>
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
