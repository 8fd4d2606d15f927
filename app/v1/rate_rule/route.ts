import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { getRateRule, saveRateRule } from "@/lib/orgs/rate-rule";
import { RateRule, RateRulePut } from "@/lib/schemas/parcel-preset";

const route = "/v1/rate_rule";

export const GET = withApi(
  {
    route,
    doc: {
      id: "getRateRule",
      summary: "How the create-label form preselects a rate: cheapest (the default), fastest or a fixed service",
      response: RateRule,
      responses: { 200: "The rule" },
    },
  },
  async ({ ctx }) => ({ body: await getRateRule(ctx) }),
);

export const PUT = withApi(
  {
    route,
    role: "admin",
    body: RateRulePut,
    doc: {
      id: "putRateRule",
      summary: "Replace the organization's rate rule",
      response: RateRule,
      responses: {
        200: "The rule as saved",
        400: "validation_error: a fixed rule without its carrier_id or service, or naming no connection or service of it",
      },
    },
  },
  async ({ ctx, body }) => ({ body: await saveRateRule(ctx, body) }),
);

export const { POST, PATCH, DELETE } = otherMethods("GET", "PUT");
