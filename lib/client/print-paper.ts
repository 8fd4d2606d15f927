/**
 * The paper a person prints labels on, kept in this browser per person and organization (as the create-label draft
 * is): a 4×6 label printer, or Letter or A4 sheets on an office printer. Print follows it, so a clerk at an office
 * printer prints a sheet with one click instead of downloading one each time. A label printer is the default.
 */
export type PrintPaper = "label" | "letter" | "a4";

export const PRINT_PAPERS: readonly { paper: PrintPaper; name: string; print: string }[] = [
  { paper: "label", name: "4×6 label printer", print: "Print label" },
  { paper: "letter", name: "Letter paper", print: "Print on Letter" },
  { paper: "a4", name: "A4 paper", print: "Print on A4" },
];

type PaperStorage = Pick<Storage, "getItem" | "setItem">;

export const printPaperKey = (orgId: string, userId: string) => `shipwell:print-paper:${orgId}:${userId}`;

/** The saved paper, or the label printer when none (or something else) is saved, or storage is refused. */
export function readPrintPaper(storage: PaperStorage, key: string): PrintPaper {
  try {
    const saved = storage.getItem(key);
    return PRINT_PAPERS.find((p) => p.paper === saved)?.paper ?? "label";
  } catch {
    return "label";
  }
}

export function savePrintPaper(storage: PaperStorage, key: string, paper: PrintPaper): void {
  try {
    storage.setItem(key, paper);
  } catch {
    // Storage full or refused (a private window): printing still works, the choice is not remembered.
  }
}
