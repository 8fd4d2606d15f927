import { otherMethods } from "@/lib/api/fallback";
import { paginate } from "@/lib/api/pagination";
import { withApi } from "@/lib/api/with-api";
import { createOrgApiKey, pageOfApiKeys } from "@/lib/auth/api-keys";
import { ApiKeyCreate, ApiKeyList, ApiKeyListQuery, CreatedApiKey } from "@/lib/schemas/api-key";

const route = "/v1/api_keys";

export const GET = withApi(
  {
    route,
    role: "admin",
    query: ApiKeyListQuery,
    doc: {
      id: "listApiKeys",
      summary: "List the organization's API keys",
      response: ApiKeyList,
      responses: { 200: "A page of keys" },
    },
  },
  async ({ ctx, query, req }) => {
    const { count, results } = await pageOfApiKeys({ ctx, ...query });
    return { body: paginate(req, query, count, results) };
  },
);

export const POST = withApi(
  {
    route,
    role: "admin",
    body: ApiKeyCreate,
    doc: {
      id: "createApiKey",
      summary: "Create an API key for the organization, pinned to an API version; the key is shown only here",
      response: CreatedApiKey,
      responses: { 201: "The new key, with the key itself" },
    },
  },
  async ({ ctx, body }) => ({ status: 201, body: await createOrgApiKey({ ctx, input: body }) }),
);

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
