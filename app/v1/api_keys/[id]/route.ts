import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { revokeOrgApiKey } from "@/lib/auth/api-keys";
import { ApiKey } from "@/lib/schemas/api-key";
import { idParam } from "@/lib/schemas/params";

export const DELETE = withApi(
  {
    route: "/v1/api_keys/{id}",
    role: "admin",
    params: idParam("key_"),
    doc: {
      id: "revokeApiKey",
      summary: "Revoke an API key at once (revoking a revoked key answers it unchanged)",
      response: ApiKey,
      responses: { 200: "The revoked key", 404: "not_found" },
    },
  },
  async ({ ctx, params }) => ({ body: await revokeOrgApiKey({ ctx, id: params.id }) }),
);

export const { GET, POST, PUT, PATCH } = otherMethods("DELETE");
