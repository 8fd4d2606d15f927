"use client";

import { useRouter } from "next/navigation";
import { RefreshCw, Trash2 } from "lucide-react";
import { FormError } from "@/components/forms/form-fields";
import { useApiMutation } from "@/components/forms/use-api-mutation";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { ShareLinkButton } from "@/components/trackers/share-link-button";
import { apiFetch } from "@/lib/client/api";
import { problemText } from "@/lib/client/problems";
import type { StoredTracker } from "@/lib/schemas/tracker";

/**
 * Refresh now (the server renders the page again with the carrier's new events), the share link, and delete behind a
 * dialog that names the number.
 */
export function TrackerActions({ id, trackingNumber }: { id: string; trackingNumber: string }) {
  const router = useRouter();
  const path = `/v1/trackers/${encodeURIComponent(id)}`;
  const refresh = useApiMutation({
    request: () => apiFetch<StoredTracker>(`${path}/refresh`, { method: "POST" }),
    success: (t) => `Refreshed: ${t.events.length} ${t.events.length === 1 ? "event" : "events"}.`,
  });
  const remove = useApiMutation({
    request: () => apiFetch(path, { method: "DELETE" }),
    success: `Tracker ${trackingNumber} deleted.`,
    failure: "caller",
    refresh: false,
    onSuccess: () => router.push("/trackers"),
  });
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button loading={refresh.isPending} onClick={() => refresh.mutate()}>
        {!refresh.isPending && <RefreshCw aria-hidden />}
        Refresh now
      </Button>
      <ConfirmDialog
        trigger={
          <Button variant="outline">
            <Trash2 aria-hidden />
            Delete
          </Button>
        }
        title={`Delete tracker ${trackingNumber}?`}
        description="Tracking stops and its events are forgotten; its share link stops working. A linked shipment keeps its status."
        confirmLabel={`Delete tracker ${trackingNumber}`}
        onConfirm={async () => {
          remove.reset();
          await remove.mutateAsync();
        }}
      >
        <FormError>{remove.error ? `Not deleted: ${problemText(remove.error)}` : null}</FormError>
      </ConfirmDialog>
      <ShareLinkButton trackerId={id} />
    </div>
  );
}
