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
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import {
  choosePrintTarget,
  downloadLabelFile,
  labelUrl,
  printLabelFile,
  type PrintTarget,
  type SheetLayout,
} from "@/components/labels/print-label";

export interface LabelActionsProps {
  shipmentId: string;
  type: "PDF" | "PNG" | "ZPL";
}

/**
 * Print (the main act: the 4×6 label to the browser's print dialog) and Download (the file as bought, or a Letter or A4
 * sheet for office printers). A ZPL label is printer commands: the browser cannot print it, so Download leads.
 */
export function LabelActions({ shipmentId, type }: LabelActionsProps) {
  const queryClient = useQueryClient();
  // Printing and downloading change nothing on the page: no refresh.
  const print = useApiMutation({
    request: (target: PrintTarget) => printLabelFile(queryClient, labelUrl(shipmentId), type as "PDF" | "PNG", target),
    failureTitle: "The label could not be printed.",
    refresh: false,
  });
  const download = useApiMutation({
    request: (layout?: SheetLayout) => downloadLabelFile(queryClient, labelUrl(shipmentId, layout)),
    failureTitle: "The label could not be downloaded.",
    refresh: false,
  });
  if (type === "ZPL") {
    return (
      <Button onClick={() => download.mutate(undefined)} loading={download.isPending}>
        <Download aria-hidden />
        Download ZPL
      </Button>
    );
  }
  return (
    <>
      {/* The print target is chosen in the click itself: a tab opened after the fetch would be blocked. */}
      <Button onClick={() => print.mutate(choosePrintTarget())} loading={print.isPending}>
        <Printer aria-hidden />
        Print label
      </Button>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button variant="outline" loading={download.isPending}>
            <Download aria-hidden />
            Download
            <ChevronDown aria-hidden />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="start">
          <DropdownMenuItem onSelect={() => download.mutate(undefined)}>
            Label as bought ({type}, for label printers)
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuLabel className="text-xs text-muted-foreground">On office paper, at 100%</DropdownMenuLabel>
          <DropdownMenuItem onSelect={() => download.mutate("letter")}>Letter sheet (PDF)</DropdownMenuItem>
          <DropdownMenuItem onSelect={() => download.mutate("a4")}>A4 sheet (PDF)</DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    </>
  );
}
