import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { idParam } from "@/lib/schemas/params";
import { WebhookEndpoint, WebhookUpdate } from "@/lib/schemas/webhook";
import { deleteEndpoint } from "@/lib/webhooks/delete-endpoint";
import { getEndpoint } from "@/lib/webhooks/get-endpoint";
import { updateEndpoint } from "@/lib/webhooks/update-endpoint";

const route = "/v1/webhooks/{id}";
const params = idParam("whk_");
const responses = { 200: "The endpoint", 404: "not_found" };

export const GET = withApi(
  {
    route,
    params,
    doc: { id: "getWebhookEndpoint", summary: "Retrieve a webhook endpoint", response: WebhookEndpoint, responses },
  },
  async ({ ctx, params }) => ({ body: await getEndpoint({ ctx, id: params.id }) }),
);

export const PATCH = withApi(
  {
    route,
    role: "admin",
    params,
    body: WebhookUpdate,
    doc: {
      id: "updateWebhookEndpoint",
      summary: "Update a webhook endpoint (enabling it clears disabled_reason and failing_since)",
      response: WebhookEndpoint,
      responses,
    },
  },
  async ({ ctx, params, body }) => ({ body: await updateEndpoint({ ctx, id: params.id, input: body }) }),
);

export const DELETE = withApi(
  {
    route,
    role: "admin",
    params,
    doc: {
      id: "deleteWebhookEndpoint",
      summary: "Delete a webhook endpoint with its deliveries and their log",
      response: WebhookEndpoint,
      responses,
    },
  },
  async ({ ctx, params }) => ({ body: await deleteEndpoint({ ctx, id: params.id }) }),
);

export const { POST, PUT } = otherMethods("GET", "PATCH", "DELETE");
