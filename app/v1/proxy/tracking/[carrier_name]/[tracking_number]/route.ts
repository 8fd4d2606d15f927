import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { trackProxy } from "@/lib/trackers/track-proxy";
import { TrackingParams, TrackingQuery } from "@/lib/schemas/proxy";

export const GET = withApi(
  { route: "/v1/proxy/tracking/{carrier_name}/{tracking_number}", params: TrackingParams, query: TrackingQuery },
  async ({ ctx, params, query }) => ({
    body: await trackProxy({
      ctx,
      carrierName: params.carrier_name,
      trackingNumber: params.tracking_number,
      carrierId: query.carrier_id,
    }),
  }),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
