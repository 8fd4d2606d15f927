"use client";

import { useEffect, useState } from "react";
import { PRINT_PAPERS, readPrintPaper, savePrintPaper, type PrintPaper } from "@/lib/client/print-paper";

/**
 * The paper this person prints on (lib/client/print-paper.ts) and a way to choose another, remembered in this
 * browser. The server renders the label printer; the saved choice replaces it once the page runs.
 */
export function usePrintPaper(paperKey: string): [PrintPaper, (paper: string) => void] {
  const [paper, setPaper] = useState<PrintPaper>("label");
  useEffect(() => setPaper(readPrintPaper(localStorage, paperKey)), [paperKey]);
  function choose(value: string) {
    const chosen = PRINT_PAPERS.find((p) => p.paper === value)?.paper ?? "label";
    savePrintPaper(localStorage, paperKey, chosen);
    setPaper(chosen);
  }
  return [paper, choose];
}
