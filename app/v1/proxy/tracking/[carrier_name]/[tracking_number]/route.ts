import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { TrackingParams, TrackingQuery, TrackingResponse } from "@/lib/schemas/proxy";
import { trackProxy } from "@/lib/trackers/track-proxy";

export const GET = withApi(
  {
    route: "/v1/proxy/tracking/{carrier_name}/{tracking_number}",
    params: TrackingParams,
    query: TrackingQuery,
    carrierFailure: { tracking: null },
    doc: {
      id: "proxyTracking",
      summary: "Tracking details from the carrier, nothing stored",
      response: TrackingResponse,
      responses: {
        200: "Tracking details, events newest first",
        404: {
          description: "carrier_not_found, or the carrier does not know the number (messages body)",
          orCarrierMessages: true,
        },
        424: "The carrier failed",
      },
    },
  },
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
