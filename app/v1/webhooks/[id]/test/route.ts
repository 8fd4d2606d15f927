import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { idParam } from "@/lib/schemas/params";
import { WebhookAttempt } from "@/lib/schemas/webhook-delivery";
import { sendTestPing } from "@/lib/webhooks/deliver";

export const POST = withApi(
  {
    route: "/v1/webhooks/{id}/test",
    role: "admin",
    params: idParam("whk_"),
    doc: {
      id: "testWebhook",
      summary: "Send a signed ping event to the endpoint now and answer how it went (also logged in its deliveries)",
      response: WebhookAttempt,
      responses: { 200: "The attempt: status code, duration, answer excerpt, error class", 404: "not_found" },
    },
  },
  async ({ ctx, params }) => ({ body: await sendTestPing({ ctx, id: params.id }) }),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
