import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { idParam } from "@/lib/schemas/params";
import { EventRedeliver, Redelivery } from "@/lib/schemas/webhook-delivery";
import { redeliverEvent } from "@/lib/webhooks/redeliver";

export const POST = withApi(
  {
    route: "/v1/events/{id}/redeliver",
    role: "admin",
    params: idParam("evt_"),
    body: EventRedeliver,
    optionalBody: true,
    doc: {
      id: "redeliverEvent",
      summary:
        "Send an event again, to one endpoint or to every endpoint that subscribes to it, even after its retries ran out",
      response: Redelivery,
      responses: {
        202: "The deliveries queued, due now",
        404: "not_found: the event or the endpoint",
        409: "state_conflict: the endpoint is disabled",
      },
    },
  },
  async ({ ctx, params, body }) => ({
    status: 202,
    body: await redeliverEvent({ ctx, eventId: params.id, endpointId: body.endpoint_id }),
  }),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
