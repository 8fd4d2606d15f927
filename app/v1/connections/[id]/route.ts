import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { deleteConnection } from "@/lib/connections/delete-connection";
import { getConnection } from "@/lib/connections/get-connection";
import { updateConnection } from "@/lib/connections/update-connection";
import { Connection, ConnectionUpdate } from "@/lib/schemas/connection";
import { idParam } from "@/lib/schemas/params";

const route = "/v1/connections/{id}";
const params = idParam("car_");
const responses = { 200: "The connection", 404: "not_found" };

export const GET = withApi(
  {
    route,
    params,
    doc: { id: "getConnection", summary: "Retrieve a carrier connection", response: Connection, responses },
  },
  async ({ ctx, params }) => ({ body: await getConnection({ ctx, id: params.id }) }),
);

export const PATCH = withApi(
  {
    route,
    role: "admin",
    params,
    body: ConnectionUpdate,
    doc: { id: "updateConnection", summary: "Update a carrier connection", response: Connection, responses },
  },
  async ({ ctx, params, body }) => ({ body: await updateConnection({ ctx, id: params.id, input: body }) }),
);

export const DELETE = withApi(
  {
    route,
    role: "admin",
    params,
    doc: { id: "deleteConnection", summary: "Delete a carrier connection", response: Connection, responses },
  },
  async ({ ctx, params }) => ({ body: await deleteConnection({ ctx, id: params.id }) }),
);

export const { POST, PUT } = otherMethods("GET", "PATCH", "DELETE");
