import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { deleteConnection } from "@/lib/connections/delete-connection";
import { getConnection } from "@/lib/connections/get-connection";
import { updateConnection } from "@/lib/connections/update-connection";
import { ConnectionUpdate } from "@/lib/schemas/connection";
import { idParam } from "@/lib/schemas/params";

const params = idParam("car_");
const route = "/v1/connections/{id}";

export const GET = withApi({ route, params }, async ({ ctx, params }) => ({
  body: await getConnection({ ctx, id: params.id }),
}));

export const PATCH = withApi({ route, params, body: ConnectionUpdate }, async ({ ctx, params, body }) => ({
  body: await updateConnection({ ctx, id: params.id, input: body }),
}));

export const DELETE = withApi({ route, params }, async ({ ctx, params }) => ({
  body: await deleteConnection({ ctx, id: params.id }),
}));

export const { POST, PUT } = otherMethods("GET", "PATCH", "DELETE");
