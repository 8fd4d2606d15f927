"use client";

import { useQueryClient } from "@tanstack/react-query";
import { ChevronDown, Download, Printer } from "lucide-react";
import { useApiMutation } from "@/components/forms/use-api-mutation";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { choosePrintTarget, labelUrl, printShipmentLabel, type PrintTarget } from "@/components/labels/print-label";
import { useFileDownload } from "@/components/labels/use-file-download";
import { usePrintPaper } from "@/components/labels/use-print-paper";
import { PRINT_PAPERS } from "@/lib/client/print-paper";

export interface LabelActionsProps {
  shipmentId: string;
  type: "PDF" | "PNG" | "ZPL";
  /** Where this person's paper is kept in the browser (printPaperKey). */
  paperKey: string;
}

/**
 * Print (the main act: the label to the browser's print dialog, on the paper this person prints on: the 4×6 label,
 * or a Letter or A4 sheet for office printers, chosen beside it and remembered) and Download (the file as bought, or
 * a sheet). A ZPL label is printer commands: the browser cannot print it, so Download leads.
 */
export function LabelActions({ shipmentId, type, paperKey }: LabelActionsProps) {
  const queryClient = useQueryClient();
  const [paper, choosePaper] = usePrintPaper(paperKey);
  // Printing and downloading change nothing on the page: no refresh.
  const print = useApiMutation({
    request: (target: PrintTarget) => printShipmentLabel(queryClient, shipmentId, type as "PDF" | "PNG", paper, target),
    failureTitle: "The label could not be printed.",
    refresh: false,
  });
  const download = useFileDownload("The label could not be downloaded.");
  if (type === "ZPL") {
    return (
      <Button onClick={() => download.mutate(labelUrl(shipmentId))} loading={download.isPending}>
        <Download aria-hidden />
        Download ZPL
      </Button>
    );
  }
  return (
    <>
      <div className="flex">
        {/* The print target is chosen in the click itself: a tab opened after the fetch would be blocked. */}
        <Button className="rounded-r-none" onClick={() => print.mutate(choosePrintTarget())} loading={print.isPending}>
          <Printer aria-hidden />
          {PRINT_PAPERS.find((p) => p.paper === paper)!.print}
        </Button>
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button
              className="rounded-l-none border-l border-primary-foreground/30 px-2"
              aria-label="Paper to print on"
            >
              <ChevronDown aria-hidden />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="start">
            <DropdownMenuLabel className="text-xs text-muted-foreground">Print on</DropdownMenuLabel>
            <DropdownMenuRadioGroup value={paper} onValueChange={choosePaper}>
              {PRINT_PAPERS.map((p) => (
                <DropdownMenuRadioItem key={p.paper} value={p.paper}>
                  {p.name}
                </DropdownMenuRadioItem>
              ))}
            </DropdownMenuRadioGroup>
          </DropdownMenuContent>
        </DropdownMenu>
      </div>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button variant="outline" loading={download.isPending}>
            <Download aria-hidden />
            Download
            <ChevronDown aria-hidden />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="start">
          <DropdownMenuItem onSelect={() => download.mutate(labelUrl(shipmentId))}>
            Label as bought ({type}, for label printers)
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuLabel className="text-xs text-muted-foreground">On office paper, at 100%</DropdownMenuLabel>
          <DropdownMenuItem onSelect={() => download.mutate(labelUrl(shipmentId, "letter"))}>
            Letter sheet (PDF)
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => download.mutate(labelUrl(shipmentId, "a4"))}>
            A4 sheet (PDF)
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    </>
  );
}
