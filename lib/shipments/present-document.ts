import type { DocumentType, LabelType, ShipDocument } from "@/lib/carriers/types";
import { wrapBase64 } from "@/lib/labels/base64";
import type { ShipmentDocument } from "@/lib/schemas/shipment-document";
import { formatTimestamp } from "@/lib/timestamp";

/**
 * The one place a ShipmentDocument's JSON is built (docs/api.md, "Documents"): a stored document's facts without
 * its bytes (downloaded by id), or a proxy purchase's document with its bytes inline and no id (nothing is stored).
 */
export interface DocumentFields {
  id: string | null;
  type: DocumentType;
  format: LabelType;
  name: string | null;
  size: number;
  createdAt: Date;
  content: Uint8Array | null;
}

export function presentDocument(d: DocumentFields): ShipmentDocument {
  return {
    id: d.id,
    type: d.type,
    format: d.format,
    name: d.name,
    size: d.size,
    created_at: formatTimestamp(d.createdAt),
    // Wrapped as labels are (lib/labels/base64.ts).
    content: d.content ? wrapBase64(d.content) : null,
  };
}

/** A document a carrier just sold, as a proxy answer carries it. */
export function unstoredDocument(d: ShipDocument, at: Date): DocumentFields {
  return {
    id: null,
    type: d.type,
    format: d.format,
    name: d.name,
    size: d.bytes.byteLength,
    createdAt: at,
    content: d.bytes,
  };
}
