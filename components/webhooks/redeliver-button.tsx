"use client";

import { useRouter } from "next/navigation";
import { useMutation } from "@tanstack/react-query";
import { RotateCw } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { apiFetch } from "@/lib/client/api";
import type { Redelivery } from "@/lib/schemas/webhook-delivery";

/** Queues the event again for this endpoint (POST /v1/events/{id}/redeliver); the sender sends it within a second. */
export function RedeliverButton({ eventId, endpointId }: { eventId: string; endpointId: string }) {
  const router = useRouter();
  const redeliver = useMutation({
    mutationFn: () => apiFetch<Redelivery>(`/v1/events/${eventId}/redeliver`, { body: { endpoint_id: endpointId } }),
    onSuccess: () => {
      toast.success(`Event ${eventId} queued for redelivery.`);
      router.refresh();
    },
    onError: (err) => toast.error(err.message),
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
