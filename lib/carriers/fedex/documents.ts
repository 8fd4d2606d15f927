import type { AdapterMessage, DocumentType, ShipDocument } from "@/lib/carriers/types";
import { carrierCode } from "@/lib/carriers/types";
import { str } from "@/lib/carriers/fedex/wire";
import { detectLabelType } from "@/lib/labels/check";

/**
 * The kinds of file FedEx answers beside a shipment (ship-api.json, `components.schemas.LabelResponseVO.properties.
 * contentType` enum), and what each is to us: a label (what goes on the label stock) or one of our document types.
 * The reports, forms and instructions without a type of their own are "other", kept under FedEx's name.
 */
export const FEDEX_CONTENT_TYPES = {
  LABEL: "label",
  BILL_OF_LADING: "other",
  GAA_FORM: "other",
  HAZMAT_LABEL: "label",
  END_OF_DAY_HAZMAT_REPORT: "other",
  MANIFEST_REPORT: "other",
  MULTIWEIGHT_REPORT: "other",
  // Labels and documents in one file: the labels are what it is for; we never ask for it.
  MERGED_LABEL_DOCUMENTS: "label",
  AUXILIARY: "other",
  RETURN_INSTRUCTIONS: "other",
  ACCEPTANCE_LABEL: "label",
  COMMERCIAL_INVOICE: "commercial_invoice",
  PROFORMA_INVOICE: "pro_forma_invoice",
  USMCA_CERTIFICATION_OF_ORIGIN: "certificate_of_origin",
  CERTIFICATE_OF_ORIGIN: "certificate_of_origin",
  MERGED_LABELS_ONLY: "label",
  // USMCA's commercial invoice with its certification of origin on it: the invoice customs read.
  USMCA_COMMERCIAL_INVOICE_CERTIFICATION_OF_ORIGIN: "commercial_invoice",
} as const satisfies Record<string, "label" | DocumentType>;

/** A kind FedEx adds after the spec we read is a label when its name says so, else a document ("other"). */
function kindOf(contentType: string): "label" | DocumentType {
  return Object.hasOwn(FEDEX_CONTENT_TYPES, contentType)
    ? FEDEX_CONTENT_TYPES[contentType as keyof typeof FEDEX_CONTENT_TYPES]
    : contentType.includes("LABEL")
      ? "label"
      : "other";
}

/** A file FedEx answered is a label (one without a content type too: FedEx's piece files are labels). */
export const isLabel = (d: Record<string, unknown>) =>
  kindOf((str(d.contentType) ?? "LABEL").toUpperCase()) === "label";

/**
 * The documents that are not labels, from the shipment and from each piece (a piece may carry its own customs
 * papers). We ask for them inline (`labelResponseOptions: "LABEL"`); one that comes only as a URL (FedEx keeps it 24
 * hours) or not as the file it claims is reported, not kept: the label is sold by now, and a warning lets the shipper
 * fetch the paper in time.
 */
export function documentsOf(docs: Record<string, unknown>[]): {
  documents: ShipDocument[];
  messages: AdapterMessage[];
} {
  const documents: ShipDocument[] = [];
  const messages: AdapterMessage[] = [];
  for (const d of docs) {
    const kind = (str(d.contentType) ?? "").toUpperCase();
    const encoded = str(d.encodedLabel);
    const bytes = encoded ? new Uint8Array(Buffer.from(encoded, "base64")) : null;
    const format = bytes && bytes.length > 0 ? detectLabelType(bytes) : null;
    if (bytes && format) {
      const type = kindOf(kind);
      documents.push({ type: type === "label" ? "other" : type, format, bytes, name: kind || null });
      continue;
    }
    const url = str(d.url);
    messages.push({
      code: carrierCode("FEDEX_DOCUMENT_NOT_KEPT"),
      level: "warning",
      message: url
        ? `FedEx answered the ${kind || "shipping document"} as a link only; download it within 24 hours.`
        : `FedEx sent the ${kind || "shipping document"} in a file that could not be read; print it from FedEx Ship Manager.`,
      details: { content_type: kind || null, ...(url ? { url } : {}) },
    });
  }
  return { documents, messages };
}
