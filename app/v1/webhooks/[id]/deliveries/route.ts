import { otherMethods } from "@/lib/api/fallback";
import { paginate } from "@/lib/api/pagination";
import { withApi } from "@/lib/api/with-api";
import { idParam } from "@/lib/schemas/params";
import { WebhookAttemptList, WebhookAttemptListQuery } from "@/lib/schemas/webhook-delivery";
import { listEndpointAttempts } from "@/lib/webhooks/list-attempts";

export const GET = withApi(
  {
    route: "/v1/webhooks/{id}/deliveries",
    params: idParam("whk_"),
    query: WebhookAttemptListQuery,
    doc: {
      id: "listWebhookDeliveries",
      summary: "The endpoint's delivery log: every attempt, newest first",
      response: WebhookAttemptList,
      responses: { 200: "A page of attempts", 404: "not_found" },
    },
  },
  async ({ ctx, params, query, req }) => {
    const { count, results } = await listEndpointAttempts({ ctx, id: params.id, filters: query });
    return { body: paginate(req, query, count, results) };
  },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
