import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { CarrierFailureError } from "@/lib/errors";
import { fetchRates } from "@/lib/rates/fetch-rates";
import { ProxyRatesRequest } from "@/lib/schemas/proxy";

/** 200 all carriers answered; 207 some failed (their messages beside the rates); 424 all failed. */
export const POST = withApi({ route: "/v1/proxy/rates", body: ProxyRatesRequest }, async ({ ctx, body }) => {
  const { rates, messages, asked, failed } = await fetchRates({ ctx, input: body });
  if (failed === asked) throw new CarrierFailureError(messages, { rates: [] });
  return { status: failed > 0 ? 207 : 200, body: { messages, rates } };
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
