import { otherMethods } from "@/lib/api/fallback";
import { paginate } from "@/lib/api/pagination";
import { withApi } from "@/lib/api/with-api";
import {
  WebhookCreate,
  WebhookEndpointList,
  WebhookEndpointListQuery,
  WebhookEndpointWithSecret,
} from "@/lib/schemas/webhook";
import { createEndpoint } from "@/lib/webhooks/create-endpoint";
import { listEndpoints } from "@/lib/webhooks/list-endpoints";

const route = "/v1/webhooks";

export const GET = withApi(
  {
    route,
    query: WebhookEndpointListQuery,
    doc: {
      id: "listWebhookEndpoints",
      summary: "List webhook endpoints, newest first (never their secrets)",
      response: WebhookEndpointList,
      responses: { 200: "A page of endpoints" },
    },
  },
  async ({ ctx, query, req }) => {
    const { count, results } = await listEndpoints({ ctx, page: query });
    return { body: paginate(req, query, count, results) };
  },
);

export const POST = withApi(
  {
    route,
    role: "admin",
    body: WebhookCreate,
    doc: {
      id: "createWebhookEndpoint",
      summary: "Create a webhook endpoint; its signing secret is shown only in this answer",
      response: WebhookEndpointWithSecret,
      responses: { 201: "The new endpoint, with its signing secret", 409: "state_conflict: 20 endpoints already" },
    },
  },
  async ({ ctx, body, version }) => ({
    status: 201,
    body: await createEndpoint({ ctx, input: body, apiVersion: version }),
  }),
);

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
