import { otherMethods } from "@/lib/api/fallback";
import { fileResponse } from "@/lib/api/file-response";
import { withApi } from "@/lib/api/with-api";
import { DocumentParams } from "@/lib/schemas/shipment-document";
import { DOCUMENT_MEDIA_TYPES, getDocument } from "@/lib/shipments/get-document";

export const GET = withApi(
  {
    route: "/v1/shipments/{id}/documents/{document_id}",
    params: DocumentParams,
    doc: {
      id: "getShipmentDocument",
      summary: "One of the shipment's documents as a download (PDF, PNG or ZPL, as the carrier drew it)",
      response: { files: DOCUMENT_MEDIA_TYPES },
      responses: { 200: "The file", 404: "not_found: no such shipment, or no such document of it" },
    },
  },
  async ({ ctx, params }) => {
    const file = await getDocument({ ctx, id: params.id, documentId: params.document_id });
    return fileResponse(file);
  },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
