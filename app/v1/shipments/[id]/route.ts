import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { idParam } from "@/lib/schemas/params";
import { Shipment, ShipmentWithMessages } from "@/lib/schemas/shipment";
import { cancelShipment } from "@/lib/shipments/cancel-shipment";
import { getShipment } from "@/lib/shipments/get-shipment";
import { withShipmentFields } from "@/lib/shipments/present-shipment";

const route = "/v1/shipments/{id}";
const params = idParam("shp_");

export const GET = withApi(
  {
    route,
    params,
    doc: {
      id: "getShipment",
      summary: "Retrieve a shipment",
      response: Shipment,
      responses: { 200: "The shipment", 404: "not_found" },
    },
  },
  async ({ ctx, params }) => ({ body: await getShipment({ ctx, id: params.id }) }),
);

/** The 2021.7 form of POST /v1/shipments/{id}/cancel: the same cancellation and answer; nothing is deleted. */
export const DELETE = withApi(
  {
    route,
    params,
    carrierFailure: { shipment: null },
    doc: {
      id: "deleteShipment",
      summary: "Cancel a shipment (the same as POST /v1/shipments/{id}/cancel; the record is kept)",
      response: ShipmentWithMessages,
      responses: {
        200: "The cancelled shipment (also when it already was)",
        404: "not_found, or carrier_not_found",
        409: "state_conflict: the parcel is already moving, or another operation is in progress",
        424: "The carrier refused to void; the shipment stays purchased",
      },
    },
  },
  async ({ ctx, params }) => ({ body: withShipmentFields(await cancelShipment({ ctx, id: params.id })) }),
);

export const { POST, PUT, PATCH } = otherMethods("GET", "DELETE");
