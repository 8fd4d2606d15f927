import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { idParam } from "@/lib/schemas/params";
import { ShipmentPurchase } from "@/lib/schemas/shipment";
import { purchaseShipment } from "@/lib/shipments/purchase-shipment";

export const POST = withApi(
  { route: "/v1/shipments/{id}/purchase", params: idParam("shp_"), body: ShipmentPurchase },
  async ({ ctx, params, body }) => ({ body: await purchaseShipment({ ctx, id: params.id, input: body }) }),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
