"use client";

import { useRouter } from "next/navigation";
import { useMutation } from "@tanstack/react-query";
import { RefreshCw, Trash2 } from "lucide-react";
import { toast } from "sonner";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { ShareLinkButton } from "@/components/trackers/share-link-button";
import { apiFetch } from "@/lib/client/api";
import type { StoredTracker } from "@/lib/schemas/tracker";

/**
 * Refresh now (the server renders the page again with the carrier's new events), the share link, and delete behind a
 * dialog that names the number.
 */
export function TrackerActions({ id, trackingNumber }: { id: string; trackingNumber: string }) {
  const router = useRouter();
  const path = `/v1/trackers/${encodeURIComponent(id)}`;
  const refresh = useMutation({
    mutationFn: () => apiFetch<StoredTracker>(`${path}/refresh`, { method: "POST" }),
    onSuccess: (t) => {
      toast.success(`Refreshed: ${t.events.length} ${t.events.length === 1 ? "event" : "events"}.`);
      router.refresh();
    },
    onError: (err) => toast.error(`The carrier could not be asked: ${err.message}`),
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
          try {
            await apiFetch(path, { method: "DELETE" });
          } catch (err) {
            toast.error(`Not deleted: ${(err as Error).message}`);
            throw err;
          }
          toast.success(`Tracker ${trackingNumber} deleted.`);
          router.push("/trackers");
        }}
      />
      <ShareLinkButton trackerId={id} />
    </div>
  );
}
