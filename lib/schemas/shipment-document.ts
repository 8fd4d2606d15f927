import { z } from "zod";
import { DOCUMENT_TYPES, LABEL_TYPES } from "@/lib/carriers/types";
import { Timestamp } from "./common";

/**
 * A paper the carrier sold with the label (docs/api.md, "Documents"): a commercial invoice to print and attach, a
 * customs declaration, a waybill copy. A stored shipment's documents are downloaded one by one
 * (GET /v1/shipments/{id}/documents/{document_id}); a proxy purchase stores nothing, so it answers them inline.
 */
export const ShipmentDocument = z
  .object({
    id: z.string().nullable().describe("doc_ id; null in a proxy answer (nothing is stored)"),
    type: z.enum(DOCUMENT_TYPES),
    format: z.enum(LABEL_TYPES).describe("The file's kind: PDF, PNG or ZPL"),
    name: z.string().nullable().describe("The carrier's own name for it, when it gives one"),
    size: z.number().int().describe("Bytes"),
    created_at: Timestamp,
    content: z
      .string()
      .nullable()
      .describe("The file, base64, in a proxy answer only; a stored document is downloaded by its id"),
  })
  .meta({ id: "ShipmentDocument" });
export type ShipmentDocument = z.output<typeof ShipmentDocument>;

export const ShipmentDocumentList = z
  .object({ results: z.array(ShipmentDocument) })
  .meta({ id: "ShipmentDocumentList" });

export const DocumentParams = z.object({
  id: z.string().regex(/^shp_[0-9a-f]{32}$/, "must be a shp_ id"),
  document_id: z.string().regex(/^doc_[0-9a-f]{32}$/, "must be a doc_ id"),
});
