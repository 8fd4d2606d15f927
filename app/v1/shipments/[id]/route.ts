import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { idParam } from "@/lib/schemas/params";
import { Shipment } from "@/lib/schemas/shipment";
import { getShipment } from "@/lib/shipments/get-shipment";

export const GET = withApi(
  {
    route: "/v1/shipments/{id}",
    params: idParam("shp_"),
    doc: {
      id: "getShipment",
      summary: "Retrieve a shipment",
      response: Shipment,
      responses: { 200: "The shipment", 404: "not_found" },
    },
  },
  async ({ ctx, params }) => ({ body: await getShipment({ ctx, id: params.id }) }),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
