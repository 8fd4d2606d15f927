import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { TrackerParams, TrackingQuery } from "@/lib/schemas/proxy";
import { createTracker } from "@/lib/trackers/create-tracker";

// The folder is [id] because Next.js wants one slug name per level (trackers/{id} lives beside this);
// here that segment is the carrier name, and TrackerParams reads it as such.
const handler = withApi(
  { route: "/v1/trackers/{carrier_name}/{tracking_number}", params: TrackerParams, query: TrackingQuery },
  async ({ ctx, params, query }) => {
    const { created, tracker } = await createTracker({
      ctx,
      carrierName: params.carrier_name,
      trackingNumber: params.tracking_number,
      carrierId: query.carrier_id,
    });
    return { status: created ? 201 : 200, body: tracker };
  },
);

// The interface lists POST and its sample uses GET: both create or return.
export const POST = handler;
export const GET = handler;
export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
