import type { PDFDocument } from "pdf-lib";
import { pdfLib } from "@/lib/labels/pdf-lib";

/**
 * Chrome (and Acrobat) print a PDF at actual size only when its ViewerPreferences say PrintScaling None; without it
 * they fit the page to the printer's printable area, shrinking a 4×6 label by a few per cent, enough to make a
 * barcode unreadable for some scanners.
 */
export async function printAtActualSize(doc: PDFDocument): Promise<void> {
  const { PrintScaling } = await pdfLib();
  doc.catalog.getOrCreateViewerPreferences().setPrintScaling(PrintScaling.None);
}

export async function printsAtActualSize(doc: PDFDocument): Promise<boolean> {
  const { PrintScaling } = await pdfLib();
  return doc.catalog.getViewerPreferences()?.getPrintScaling() === PrintScaling.None;
}

/**
 * A label PDF as we hand it out: with PrintScaling None, whoever drew it (our renderer sets it already; a carrier's
 * PDF usually does not). Page geometry is the carrier's and stays as it is. A document that already asks for actual
 * size comes back byte for byte, and one pdf-lib cannot rewrite (encrypted, damaged) is served as bought rather than
 * refused: the flag is a convenience, the label is the carrier's.
 */
export async function printReady(pdf: Uint8Array): Promise<Uint8Array> {
  const { PDFDocument } = await pdfLib();
  try {
    const doc = await PDFDocument.load(pdf, { updateMetadata: false });
    if (await printsAtActualSize(doc)) return pdf;
    await printAtActualSize(doc);
    return await doc.save();
  } catch {
    // pdf-lib refuses some files on load and others only once it reaches a missing catalog or page tree.
    return pdf;
  }
}
