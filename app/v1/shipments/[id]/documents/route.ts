import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { idParam } from "@/lib/schemas/params";
import { ShipmentDocumentList } from "@/lib/schemas/shipment-document";
import { listDocuments } from "@/lib/shipments/list-documents";

export const GET = withApi(
  {
    route: "/v1/shipments/{id}/documents",
    params: idParam("shp_"),
    doc: {
      id: "listShipmentDocuments",
      summary: "The papers the carrier sold with the label (a commercial invoice to print and attach), without bytes",
      response: ShipmentDocumentList,
      responses: { 200: "The shipment's documents, in the carrier's order (often none)", 404: "not_found" },
    },
  },
  async ({ ctx, params }) => ({ body: { results: await listDocuments({ ctx, id: params.id }) } }),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
