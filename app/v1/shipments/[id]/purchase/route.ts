import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { idParam } from "@/lib/schemas/params";
import { ShipmentPurchase, ShipmentWithMessages } from "@/lib/schemas/shipment";
import { withShipmentFields } from "@/lib/shipments/present-shipment";
import { purchaseShipment } from "@/lib/shipments/purchase-shipment";

export const POST = withApi(
  {
    route: "/v1/shipments/{id}/purchase",
    params: idParam("shp_"),
    body: ShipmentPurchase,
    carrierFailure: { shipment: null },
    doc: {
      id: "purchaseShipment",
      summary: "Buy the label for one of the shipment's rates (exactly one label per shipment)",
      response: ShipmentWithMessages,
      responses: {
        200: "The purchased shipment, with a linked tracker",
        404: "not_found, or carrier_not_found",
        409: "state_conflict: already purchased, cancelled, or a purchase is in progress",
        422: "address_incomplete: the shipment was rated without an address line, city or state a label needs",
        424: "The carrier refused; the shipment stays created",
      },
    },
  },
  async ({ ctx, params, body }) => ({
    body: withShipmentFields(await purchaseShipment({ ctx, id: params.id, input: body })),
  }),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
