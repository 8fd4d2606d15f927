import type { PDFDocument } from "pdf-lib";
import type { AdapterMessage, DocumentType, LabelType, ShipDocument } from "@/lib/carriers/types";
import { carrierCode } from "@/lib/carriers/types";
import { badResponse } from "@/lib/carriers/dhl_express/errors";
import { str } from "@/lib/carriers/dhl_express/wire";
import { detectLabelType } from "@/lib/labels/check";
import { pdfLib } from "@/lib/labels/pdf-lib";

/**
 * The files of a MyDHL shipment answer (`documents[]`: `typeCode`, `imageFormat`, base64 `content`): the transport
 * label (`label`, one per piece when DHL splits them), and the papers beside it, by the spec's `imageOptions.typeCode`
 * words: the waybill document (`waybillDoc`), the commercial invoice (`invoice`), a shipment receipt and a QR code.
 */
const DHL_DOCUMENT_TYPES: ReadonlyMap<string, "label" | DocumentType> = new Map<string, "label" | DocumentType>([
  ["label", "label"],
  ["waybilldoc", "waybill"],
  ["invoice", "commercial_invoice"],
  ["shipmentreceipt", "other"],
  ["qr-code", "other"],
]);

/** What a file is to us; a kind DHL adds after the spec we read is kept as "other" under DHL's name. */
export const kindOf = (d: Record<string, unknown>): "label" | DocumentType =>
  DHL_DOCUMENT_TYPES.get((str(d.typeCode) ?? "").toLowerCase()) ?? "other";

function decoded(d: Record<string, unknown>): Uint8Array | null {
  const content = str(d.content);
  const bytes = content ? new Uint8Array(Buffer.from(content, "base64")) : null;
  return bytes && bytes.length > 0 ? bytes : null;
}

/**
 * The papers that are not labels. The label is sold by the time they are read: a file that cannot be read is a
 * warning naming it (the shipper prints it from MyDHL), never a failed purchase.
 */
export function documentsOf(docs: Record<string, unknown>[]): {
  documents: ShipDocument[];
  messages: AdapterMessage[];
} {
  const documents: ShipDocument[] = [];
  const messages: AdapterMessage[] = [];
  for (const d of docs) {
    const name = str(d.typeCode);
    const bytes = decoded(d);
    const format = bytes ? detectLabelType(bytes) : null;
    if (bytes && format) {
      documents.push({ type: kindOf(d) === "label" ? "other" : (kindOf(d) as DocumentType), format, bytes, name });
      continue;
    }
    messages.push({
      code: carrierCode("DHL_DOCUMENT_NOT_KEPT"),
      level: "warning",
      message: `DHL Express sent the ${name ?? "shipping document"} in a file that could not be read; print it from MyDHL.`,
      details: { type_code: name },
    });
  }
  return { documents, messages };
}

/**
 * One label file for the shipment: DHL's label documents (one, or one per piece) joined as one PDF with a page per
 * label, or one ZPL job after another. A file that is not what was asked for is a bad answer: without a label the
 * purchase cannot be used.
 */
export async function oneLabel(docs: Record<string, unknown>[], type: LabelType): Promise<Uint8Array> {
  const files = docs.map((d) => decoded(d)).filter((b): b is Uint8Array => b !== null);
  if (files.length === 0) throw badResponse("no label in the answer");
  for (const f of files) if (detectLabelType(f) !== type) throw badResponse(`a label that is not ${type}`);
  if (files.length === 1) return files[0]!;
  if (type === "ZPL") {
    const text = files.map((f) => new TextDecoder().decode(f).trim()).join("\n");
    return new TextEncoder().encode(text + "\n");
  }
  const pdf = await pdfLib();
  const merged = await pdf.PDFDocument.create();
  for (const file of files) {
    const doc: PDFDocument = await pdf.PDFDocument.load(file);
    for (const page of await merged.copyPages(doc, doc.getPageIndices())) merged.addPage(page);
  }
  return merged.save();
}
