import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { idParam } from "@/lib/schemas/params";
import { cancelShipment } from "@/lib/shipments/cancel-shipment";

export const POST = withApi(
  { route: "/v1/shipments/{id}/cancel", params: idParam("shp_") },
  async ({ ctx, params }) => ({
    body: await cancelShipment({ ctx, id: params.id }),
  }),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
