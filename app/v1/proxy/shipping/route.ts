import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { buyProxyLabel } from "@/lib/shipments/buy-proxy-label";
import { ProxyShippingRequest } from "@/lib/schemas/proxy";
import { Shipment } from "@/lib/schemas/shipment";

export const POST = withApi(
  {
    route: "/v1/proxy/shipping",
    body: ProxyShippingRequest,
    doc: {
      id: "proxyShipping",
      summary: "Buy a label for one of the given rates, nothing stored",
      response: Shipment,
      responses: {
        200: "The purchased shipment (status purchased, ids null)",
        404: "carrier_not_found",
        422: "customs_required: the parcel crosses a customs border and the request has no customs; address_invalid (validate: true)",
        424: "The carrier refused",
      },
    },
  },
  async ({ ctx, body }) => ({ body: await buyProxyLabel({ ctx, input: body }) }),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
