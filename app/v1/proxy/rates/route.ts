import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { proxyRates } from "@/lib/rates/proxy-rates";
import { ProxyRatesRequest, RatesResponse } from "@/lib/schemas/proxy";

export const POST = withApi(
  {
    route: "/v1/proxy/rates",
    body: ProxyRatesRequest,
    carrierFailure: { rates: [] },
    doc: {
      id: "proxyRates",
      summary: "Rates from every selected carrier connection, nothing stored",
      response: RatesResponse,
      responses: {
        200: "Every carrier answered; rates sorted by total_charge",
        207: "Some carriers failed: their messages beside the other carriers' rates",
        404: "carrier_not_found",
        424: "Every carrier failed",
      },
    },
  },
  async ({ ctx, body }) => {
    const { messages, rates, partial } = await proxyRates({ ctx, input: body });
    return { status: partial ? 207 : 200, body: { messages, rates } };
  },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
