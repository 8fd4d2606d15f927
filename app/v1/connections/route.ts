import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { paginate } from "@/lib/api/pagination";
import { createConnection } from "@/lib/connections/create-connection";
import { listConnections } from "@/lib/connections/list-connections";
import { ConnectionCreate } from "@/lib/schemas/connection";
import { PageQuery } from "@/lib/schemas/pagination";
import { ConnectionListQuery } from "@/lib/schemas/params";

export const GET = withApi(
  { route: "/v1/connections", query: PageQuery.extend(ConnectionListQuery.shape) },
  async ({ ctx, query, req }) => {
    const { count, results } = await listConnections({ ctx, filters: query });
    return { body: paginate(req, query, count, results) };
  },
);

export const POST = withApi({ route: "/v1/connections", body: ConnectionCreate }, async ({ ctx, body }) => ({
  status: 201,
  body: await createConnection({ ctx, input: body }),
}));

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
