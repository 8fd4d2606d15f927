import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { TrackerParams, TrackingQuery } from "@/lib/schemas/proxy";
import { StoredTracker } from "@/lib/schemas/tracker";
import { createTracker } from "@/lib/trackers/create-tracker";

// The folder is [id] because Next.js wants one slug name per level (trackers/{id} lives beside this); here that
// segment is the carrier name, and TrackerParams reads it as such.
// The interface lists POST and its sample uses GET: both create or return (two operations, one behaviour).
const createOrReturn = (id: string) =>
  withApi(
    {
      route: "/v1/trackers/{carrier_name}/{tracking_number}",
      params: TrackerParams,
      query: TrackingQuery,
      doc: {
        id,
        summary: "Create the organization's tracker for this number, or return the existing one",
        response: StoredTracker,
        responses: {
          200: "The existing tracker",
          201: "A new tracker with the carrier's latest details",
          404: {
            description: "carrier_not_found, or the carrier does not know the number (messages body)",
            orCarrierMessages: true,
          },
          424: "The carrier failed; nothing stored",
        },
      },
    },
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

export const POST = createOrReturn("createTracker");
export const GET = createOrReturn("createTrackerViaGet");
export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
