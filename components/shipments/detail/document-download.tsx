"use client";

import { Download } from "lucide-react";
import { useFileDownload } from "@/components/labels/use-file-download";
import { Button } from "@/components/ui/button";

/** Download for one of the shipment's documents, through the API client as a label's (useFileDownload says why). */
export function DocumentDownload({ url, words }: { url: string; words: string }) {
  const download = useFileDownload("The document could not be downloaded.");
  return (
    <Button variant="outline" size="sm" onClick={() => download.mutate(url)} loading={download.isPending}>
      <Download aria-hidden />
      Download<span className="sr-only"> {words}</span>
    </Button>
  );
}
