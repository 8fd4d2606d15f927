import { otherMethods } from "@/lib/api/fallback";
import { paginate } from "@/lib/api/pagination";
import { withApi } from "@/lib/api/with-api";
import { EventList, EventListQuery } from "@/lib/schemas/event";
import { listEvents } from "@/lib/webhooks/list-events";

export const GET = withApi(
  {
    route: "/v1/events",
    query: EventListQuery,
    doc: {
      id: "listEvents",
      summary: "List the events of the last 30 days, newest first",
      response: EventList,
      responses: { 200: "A page of events" },
    },
  },
  async ({ ctx, query, req }) => {
    const { count, results } = await listEvents({ ctx, filters: query });
    return { body: paginate(req, query, count, results) };
  },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
