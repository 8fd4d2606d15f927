import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { idParam } from "@/lib/schemas/params";
import { WebhookEndpointWithSecret } from "@/lib/schemas/webhook";
import { rotateSecret } from "@/lib/webhooks/rotate-secret";

export const POST = withApi(
  {
    route: "/v1/webhooks/{id}/rotate-secret",
    role: "admin",
    params: idParam("whk_"),
    doc: {
      id: "rotateWebhookSecret",
      summary: "Replace the signing secret; the old one keeps signing beside it for 24 hours",
      response: WebhookEndpointWithSecret,
      responses: { 200: "The endpoint, with its new signing secret (shown only here)", 404: "not_found" },
    },
  },
  async ({ ctx, params }) => ({ body: await rotateSecret({ ctx, id: params.id }) }),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
