import { otherMethods } from "@/lib/api/fallback";
import { openApiDocument } from "@/lib/api/openapi";
import { publicEndpoint } from "@/lib/api/operation";
import { requestIdFrom } from "@/lib/api/request-id";
import { apiRoutes } from "./api-routes";

// Documentation is public: it describes the API, not anyone's data.
export const GET = publicEndpoint(
  {
    route: "/v1/openapi.json",
    doc: { id: "getOpenApi", tag: "Meta", summary: "This document", responses: { 200: "OpenAPI 3.1 document" } },
  },
  (req: Request): Response =>
    Response.json(openApiDocument(documented), {
      headers: { "X-Request-ID": requestIdFrom(req), "Cache-Control": "public, max-age=300" },
    }),
);

const documented: readonly Record<string, unknown>[] = [...apiRoutes, { GET }];

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
