import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { idParam } from "@/lib/schemas/params";
import { ShipmentWithMessages } from "@/lib/schemas/shipment";
import { cancelShipment } from "@/lib/shipments/cancel-shipment";
import { withShipmentFields } from "@/lib/shipments/present-shipment";

export const POST = withApi(
  {
    route: "/v1/shipments/{id}/cancel",
    params: idParam("shp_"),
    carrierFailure: { shipment: null },
    doc: {
      id: "cancelShipment",
      summary: "Cancel a shipment, voiding its label at the carrier when it was purchased",
      response: ShipmentWithMessages,
      responses: {
        200: "The cancelled shipment (also when it already was; its label is null); a warning when the carrier cannot void, or when a lost purchase's label could not be looked up",
        404: "not_found, or carrier_not_found",
        409: "state_conflict: the parcel is already moving, or another operation is in progress",
        424: "The carrier refused to void (the shipment stays as it was), or its answer was lost (a cancel_outcome_unknown message; cancel again)",
      },
    },
  },
  async ({ ctx, params }) => ({ body: withShipmentFields(await cancelShipment({ ctx, id: params.id })) }),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
