import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { Event } from "@/lib/schemas/event";
import { idParam } from "@/lib/schemas/params";
import { getEvent } from "@/lib/webhooks/get-event";

export const GET = withApi(
  {
    route: "/v1/events/{id}",
    params: idParam("evt_"),
    doc: {
      id: "getEvent",
      summary: "Retrieve an event of the last 30 days",
      response: Event,
      responses: { 200: "The event", 404: "not_found" },
    },
  },
  async ({ ctx, params }) => ({ body: await getEvent({ ctx, id: params.id }) }),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
