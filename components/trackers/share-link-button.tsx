"use client";

import { useMutation } from "@tanstack/react-query";
import { Link2 } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { apiFetch } from "@/lib/client/api";
import type { TrackerShare } from "@/lib/schemas/tracker";

/**
 * Makes (or finds) the tracker's public page and copies its address for a customer. The address stays on screen
 * too, for when the clipboard is refused or the clerk would rather read it out.
 */
export function ShareLinkButton({ trackerId }: { trackerId: string }) {
  const share = useMutation({
    mutationFn: async () => {
      const { path } = await apiFetch<TrackerShare>(`/v1/trackers/${encodeURIComponent(trackerId)}/share`, {
        method: "POST",
      });
      const url = new URL(path, window.location.origin).toString();
      try {
        await navigator.clipboard.writeText(url);
        toast.success("Share link copied: anyone with it can follow the parcel.");
      } catch {
        toast.info("The link is below: select it and copy by hand.");
      }
      return url;
    },
    onError: (err) => toast.error(`No share link: ${err.message}`),
  });
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button variant="outline" loading={share.isPending} onClick={() => share.mutate()}>
        <Link2 aria-hidden />
        Copy share link
      </Button>
      {share.data && (
        <a
          href={share.data}
          target="_blank"
          rel="noreferrer"
          className="font-mono text-xs break-all text-primary underline underline-offset-2"
          data-testid="share-link"
        >
          {share.data}
        </a>
      )}
    </div>
  );
}
