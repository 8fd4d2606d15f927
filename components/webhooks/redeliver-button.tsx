"use client";

import { RotateCw } from "lucide-react";
import { useApiMutation } from "@/components/forms/use-api-mutation";
import { Button } from "@/components/ui/button";
import { apiFetch } from "@/lib/client/api";
import type { Redelivery } from "@/lib/schemas/webhook-delivery";

/** Queues the event again for this endpoint (POST /v1/events/{id}/redeliver); the sender sends it within a second. */
export function RedeliverButton({ eventId, endpointId }: { eventId: string; endpointId: string }) {
  const redeliver = useApiMutation({
    request: () => apiFetch<Redelivery>(`/v1/events/${eventId}/redeliver`, { body: { endpoint_id: endpointId } }),
    success: `Event ${eventId} queued for redelivery.`,
  });
  return (
    <Button
      variant="outline"
      size="sm"
      onClick={() => redeliver.mutate()}
      loading={redeliver.isPending}
      aria-label={`Redeliver event ${eventId}`}
    >
      <RotateCw aria-hidden /> Redeliver
    </Button>
  );
}
