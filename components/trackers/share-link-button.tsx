"use client";

import { Link2 } from "lucide-react";
import { toast } from "@/components/ui/toaster";
import { copyToClipboard } from "@/components/forms/copy-button";
import { useApiMutation } from "@/components/forms/use-api-mutation";
import { Button } from "@/components/ui/button";
import { apiFetch } from "@/lib/client/api";
import type { TrackerShare } from "@/lib/schemas/tracker";

/**
 * Makes (or finds) the tracker's public page and copies its address for a customer. The address stays on screen
 * too, for when the clipboard is refused or the clerk would rather read it out.
 */
export function ShareLinkButton({ trackerId }: { trackerId: string }) {
  const share = useApiMutation({
    request: async () => {
      const { path } = await apiFetch<TrackerShare>(`/v1/trackers/${encodeURIComponent(trackerId)}/share`, {
        method: "POST",
      });
      const url = new URL(path, window.location.origin).toString();
      if (await copyToClipboard(url)) toast.success("Share link copied: anyone with it can follow the parcel.");
      else toast.info("The link is below: select it and copy by hand.");
      return url;
    },
    failureTitle: "No share link.",
    // The page shows nothing of the share: the link appears here.
    refresh: false,
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
