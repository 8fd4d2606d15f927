import { otherMethods } from "@/lib/api/fallback";
import { paginate } from "@/lib/api/pagination";
import { withApi } from "@/lib/api/with-api";
import { ShipmentCreate, ShipmentListQuery } from "@/lib/schemas/shipment";
import { createShipment } from "@/lib/shipments/create-shipment";
import { listShipments } from "@/lib/shipments/list-shipments";

export const GET = withApi({ route: "/v1/shipments", query: ShipmentListQuery }, async ({ ctx, query, req }) => {
  const { count, results } = await listShipments({ ctx, filters: query });
  return { body: paginate(req, query, count, results) };
});

export const POST = withApi({ route: "/v1/shipments", body: ShipmentCreate }, async ({ ctx, body }) => ({
  status: 201,
  body: await createShipment({ ctx, input: body }),
}));

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
