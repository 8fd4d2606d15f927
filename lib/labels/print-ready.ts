import { PDFDocument, PrintScaling } from "pdf-lib";

/**
 * Chrome (and Acrobat) print a PDF at actual size only when its ViewerPreferences say PrintScaling None; without it
 * they fit the page to the printer's printable area, shrinking a 4×6 label by a few per cent, enough to make a
 * barcode unreadable for some scanners (dashboard.md §3).
 */
export function printAtActualSize(doc: PDFDocument): void {
  doc.catalog.getOrCreateViewerPreferences().setPrintScaling(PrintScaling.None);
}

export function printsAtActualSize(doc: PDFDocument): boolean {
  return doc.catalog.getViewerPreferences()?.getPrintScaling() === PrintScaling.None;
}

/**
 * A label PDF as we hand it out: with PrintScaling None, whoever drew it (our renderer sets it already; a carrier's
 * PDF usually does not). Page geometry is the carrier's and stays as it is. A document that already asks for actual
 * size comes back byte for byte, and one pdf-lib cannot rewrite (encrypted, damaged) is served as bought rather than
 * refused: the flag is a convenience, the label is the carrier's.
 */
export async function printReady(pdf: Uint8Array): Promise<Uint8Array> {
  try {
    const doc = await PDFDocument.load(pdf, { updateMetadata: false });
    if (printsAtActualSize(doc)) return pdf;
    printAtActualSize(doc);
    return await doc.save();
  } catch {
    // pdf-lib refuses some files on load and others only once it reaches a missing catalog or page tree.
    return pdf;
  }
}
