"use client";

import { useEffect, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Download, TriangleAlert } from "lucide-react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Skeleton } from "@/components/ui/skeleton";
import { labelFileQuery, labelUrl } from "@/components/labels/print-label";
import { useFileDownload } from "@/components/labels/use-file-download";

export interface LabelPreviewProps {
  shipmentId: string;
  type: "PDF" | "PNG" | "ZPL";
  trackingNumber: string | null;
  /** A ZPL label's commands, read by the page on the server (text, shown as it is). */
  zpl?: string | null;
  className?: string;
}

// A 4×6 label is 2:3; the preview keeps that shape at any width so nothing looks stretched or cropped.
const FRAME = "aspect-[2/3] w-full rounded-md border bg-white";

function PreviewProblem({ message }: { message: string }) {
  return (
    <div role="alert" className={cn(FRAME, "flex flex-col items-center justify-center gap-2 p-6 text-center text-sm")}>
      <TriangleAlert aria-hidden className="size-6 text-destructive" />
      <p>The label preview could not be loaded.</p>
      <p className="text-muted-foreground">{message}</p>
    </div>
  );
}

/** A PDF in the browser's own viewer, from a blob URL (the label endpoint may not be framed), without its toolbar. */
function PdfPreview({ url, title }: { url: string; title: string }) {
  const file = useQuery(labelFileQuery(url));
  const [objectUrl, setObjectUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file.data) return;
    const made = URL.createObjectURL(file.data.blob);
    setObjectUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [file.data]);
  if (file.error) return <PreviewProblem message={file.error.message} />;
  if (!objectUrl) return <Skeleton className={FRAME} />;
  return <iframe src={`${objectUrl}#toolbar=0&navpanes=0&view=Fit`} title={title} className={FRAME} />;
}

function PngPreview({ url, title }: { url: string; title: string }) {
  const [failed, setFailed] = useState(false);
  if (failed) return <PreviewProblem message="The image did not load; try Download." />;
  // A same-origin image request carries the session cookie; images ignore the attachment disposition.
  // eslint-disable-next-line @next/next/no-img-element -- a private, per-request file: nothing for the image optimizer
  return <img src={url} alt={title} className={cn(FRAME, "object-contain")} onError={() => setFailed(true)} />;
}

function ZplPreview({ url, zpl }: { url: string; zpl: string }) {
  const download = useFileDownload("The ZPL file could not be downloaded.");
  return (
    <div className="grid gap-3">
      <pre
        tabIndex={0}
        aria-label="ZPL commands of the label"
        className="max-h-96 overflow-auto rounded-md border bg-muted p-3 font-mono text-xs leading-relaxed whitespace-pre-wrap break-all"
      >
        {zpl}
      </pre>
      <p className="text-sm text-muted-foreground">
        ZPL is printed by a thermal label printer, not the browser: send this file to a ZPL printer (Zebra and
        compatibles). It prints at the printer&apos;s resolution, so the printer&apos;s dpi must match the label&apos;s
        (a 203 dpi label on a 300 dpi printer comes out at two thirds of its size).
      </p>
      <div>
        <Button variant="outline" onClick={() => download.mutate(url)} loading={download.isPending}>
          <Download aria-hidden />
          Download ZPL
        </Button>
      </div>
    </div>
  );
}

/** The label as bought: PDF inline, PNG as an image at 2:3, ZPL as its text with a download. */
export function LabelPreview({ shipmentId, type, trackingNumber, zpl, className }: LabelPreviewProps) {
  const url = labelUrl(shipmentId);
  const title = `Shipping label ${trackingNumber ?? shipmentId}`;
  return (
    <div className={cn("w-full max-w-sm", type === "ZPL" && "max-w-none", className)}>
      {type === "PDF" && <PdfPreview url={url} title={title} />}
      {type === "PNG" && <PngPreview url={url} title={title} />}
      {type === "ZPL" && <ZplPreview url={url} zpl={zpl ?? ""} />}
    </div>
  );
}
