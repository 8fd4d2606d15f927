import { otherMethods } from "@/lib/api/fallback";
import { paginate } from "@/lib/api/pagination";
import { withApi } from "@/lib/api/with-api";
import { createConnection } from "@/lib/connections/create-connection";
import { listConnections } from "@/lib/connections/list-connections";
import { Connection, ConnectionCreate, ConnectionList, ConnectionListQuery } from "@/lib/schemas/connection";

const route = "/v1/connections";

export const GET = withApi(
  {
    route,
    query: ConnectionListQuery,
    doc: {
      id: "listConnections",
      summary: "List carrier connections",
      response: ConnectionList,
      responses: { 200: "A page of connections" },
    },
  },
  async ({ ctx, query, req }) => {
    const { count, results } = await listConnections({ ctx, filters: query });
    return { body: paginate(req, query, count, results) };
  },
);

export const POST = withApi(
  {
    route,
    role: "admin",
    body: ConnectionCreate,
    doc: {
      id: "createConnection",
      summary: "Create a carrier connection (credentials are write-only and encrypted at rest)",
      response: Connection,
      responses: { 201: "The new connection" },
    },
  },
  async ({ ctx, body }) => ({ status: 201, body: await createConnection({ ctx, input: body }) }),
);

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
