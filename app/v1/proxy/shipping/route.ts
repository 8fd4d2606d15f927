import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { buyProxyLabel } from "@/lib/shipments/buy-proxy-label";
import { ProxyShippingRequest } from "@/lib/schemas/proxy";

export const POST = withApi({ route: "/v1/proxy/shipping", body: ProxyShippingRequest }, async ({ ctx, body }) => ({
  body: await buyProxyLabel({ ctx, input: body }),
}));

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
