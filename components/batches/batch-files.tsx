"use client";

import { useQueryClient } from "@tanstack/react-query";
import { ChevronDown, Download, Printer } from "lucide-react";
import { useApiMutation } from "@/components/forms/use-api-mutation";
import {
  choosePrintTarget,
  downloadLabelFile,
  printLabelFile,
  type PrintTarget,
} from "@/components/labels/print-label";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { LABELS_PER_PART, partCount } from "@/lib/client/batch-view";

type Sheet = "label" | "letter" | "a4";

function batchFileUrl(id: string, file: "labels.pdf" | "labels.zpl" | "packing-list.pdf", part = 1, sheet?: Sheet) {
  const base = `/v1/batches/${encodeURIComponent(id)}/${file}`;
  if (file === "packing-list.pdf") return base;
  return `${base}?part=${part}${sheet && sheet !== "label" ? `&sheet=${sheet}` : ""}`;
}

function partLabel(part: number, purchased: number): string {
  const from = (part - 1) * LABELS_PER_PART + 1;
  return `labels ${from}–${Math.min(part * LABELS_PER_PART, purchased)}`;
}

/**
 * The batch's files: Print (the 4×6 PDF to the print dialog, as a shipment's label prints), and Download (the PDF
 * on 4×6 pages or two per Letter/A4 sheet, the ZPL file, the packing list). Labels come in parts of 100, in CSV
 * order. A batch's files change after "Retry failed rows", so each act fetches them again.
 */
export function BatchFiles({ id, purchased }: { id: string; purchased: number }) {
  const queryClient = useQueryClient();
  const fresh = (url: string) => queryClient.removeQueries({ queryKey: ["label-file", url] });
  const print = useApiMutation({
    request: ({ url, target }: { url: string; target: PrintTarget }) => {
      fresh(url);
      return printLabelFile(queryClient, url, "PDF", target);
    },
    failureTitle: "The labels could not be printed.",
    refresh: false,
  });
  const download = useApiMutation({
    request: (url: string) => {
      fresh(url);
      return downloadLabelFile(queryClient, url);
    },
    failureTitle: "The file could not be downloaded.",
    refresh: false,
  });
  const parts = Array.from({ length: partCount(purchased) }, (_, i) => i + 1);
  const many = parts.length > 1;
  return (
    <div className="flex flex-wrap gap-2">
      {many ? (
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button loading={print.isPending}>
              <Printer aria-hidden />
              Print labels
              <ChevronDown aria-hidden />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="start">
            {parts.map((p) => (
              <DropdownMenuItem
                key={p}
                onSelect={() => print.mutate({ url: batchFileUrl(id, "labels.pdf", p), target: choosePrintTarget() })}
              >
                Print {partLabel(p, purchased)}
              </DropdownMenuItem>
            ))}
          </DropdownMenuContent>
        </DropdownMenu>
      ) : (
        <Button
          onClick={() => print.mutate({ url: batchFileUrl(id, "labels.pdf"), target: choosePrintTarget() })}
          loading={print.isPending}
        >
          <Printer aria-hidden />
          Print labels
        </Button>
      )}
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button variant="outline" loading={download.isPending}>
            <Download aria-hidden />
            Download
            <ChevronDown aria-hidden />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="start">
          {parts.map((p) => (
            <DropdownMenuGroupFor key={p} title={many ? `Part ${p}: ${partLabel(p, purchased)}` : null}>
              <DropdownMenuItem onSelect={() => download.mutate(batchFileUrl(id, "labels.pdf", p))}>
                Labels PDF (4×6)
              </DropdownMenuItem>
              <DropdownMenuItem onSelect={() => download.mutate(batchFileUrl(id, "labels.pdf", p, "letter"))}>
                Labels on Letter sheets (PDF)
              </DropdownMenuItem>
              <DropdownMenuItem onSelect={() => download.mutate(batchFileUrl(id, "labels.pdf", p, "a4"))}>
                Labels on A4 sheets (PDF)
              </DropdownMenuItem>
              <DropdownMenuItem onSelect={() => download.mutate(batchFileUrl(id, "labels.zpl", p))}>
                Labels ZPL (thermal printers)
              </DropdownMenuItem>
            </DropdownMenuGroupFor>
          ))}
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => download.mutate(batchFileUrl(id, "packing-list.pdf"))}>
            Packing list (PDF)
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    </div>
  );
}

function DropdownMenuGroupFor({ title, children }: { title: string | null; children: React.ReactNode }) {
  return (
    <>
      {title && <DropdownMenuLabel className="text-xs text-muted-foreground">{title}</DropdownMenuLabel>}
      {children}
    </>
  );
}
