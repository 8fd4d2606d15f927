"use client";

import { useQueryClient } from "@tanstack/react-query";
import { Download } from "lucide-react";
import { useApiMutation } from "@/components/forms/use-api-mutation";
import { downloadLabelFile } from "@/components/labels/print-label";
import { Button } from "@/components/ui/button";

/**
 * Download for one of the shipment's documents. It goes through the API client as a label download does, not a plain
 * link: with an ended session a link would save the API's JSON error as the file, where the client opens the
 * session-ended dialog and saves nothing.
 */
export function DocumentDownload({ url, words }: { url: string; words: string }) {
  const queryClient = useQueryClient();
  const download = useApiMutation({
    request: () => downloadLabelFile(queryClient, url),
    failureTitle: "The document could not be downloaded.",
    refresh: false,
  });
  return (
    <Button variant="outline" size="sm" onClick={() => download.mutate()} loading={download.isPending}>
      <Download aria-hidden />
      Download<span className="sr-only"> {words}</span>
    </Button>
  );
}
