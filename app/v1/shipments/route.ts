import { otherMethods } from "@/lib/api/fallback";
import { paginate } from "@/lib/api/pagination";
import { withApi } from "@/lib/api/with-api";
import { Shipment, ShipmentCreate, ShipmentList, ShipmentListQuery } from "@/lib/schemas/shipment";
import { createShipment } from "@/lib/shipments/create-shipment";
import { listShipments } from "@/lib/shipments/list-shipments";

const route = "/v1/shipments";

export const GET = withApi(
  {
    route,
    query: ShipmentListQuery,
    doc: {
      id: "listShipments",
      summary: "List stored shipments, newest first",
      response: ShipmentList,
      responses: { 200: "A page of shipments" },
    },
  },
  async ({ ctx, query, req }) => {
    const { count, results } = await listShipments({ ctx, filters: query });
    return { body: paginate(req, query, count, results) };
  },
);

export const POST = withApi(
  {
    route,
    body: ShipmentCreate,
    carrierFailure: { shipment: null },
    doc: {
      id: "createShipment",
      summary: "Store a shipment and rate it with the selected connections",
      response: Shipment,
      responses: {
        201: "The created shipment with its rates; carriers that failed are in messages",
        404: "carrier_not_found",
        424: "Every carrier failed; nothing stored",
      },
    },
  },
  async ({ ctx, body }) => ({ status: 201, body: await createShipment({ ctx, input: body }) }),
);

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
