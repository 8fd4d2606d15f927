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
        200: "The purchased shipment, with a linked tracker (or the label an earlier purchase bought before its answer was lost, found at the carrier: a purchase_recovered message)",
        404: "not_found, or carrier_not_found",
        409: 'state_conflict: already purchased, cancelled, or a purchase or cancellation is in progress; purchase_outcome_unknown: an earlier purchase lost its answer and the carrier could not tell whether it sold a label (send "confirm_rebuy": true to buy anyway, or cancel)',
        422: "address_incomplete: the shipment was rated without an address line, city or state a label needs; customs_required: the parcel crosses a customs border and neither the shipment nor the purchase has customs",
        424: "The carrier refused (the shipment stays created), or its answer was lost (a purchase_outcome_unknown message)",
      },
    },
  },
  async ({ ctx, params, body }) => ({
    body: withShipmentFields(await purchaseShipment({ ctx, id: params.id, input: body })),
  }),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
