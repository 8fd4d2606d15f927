import { otherMethods } from "@/lib/api/fallback";
import { requestIdFrom } from "@/lib/api/request-id";
import { openApiDocument } from "@/lib/api/openapi";

// Documentation is public: it describes the API, not anyone's data.
export function GET(req: Request) {
  return Response.json(openApiDocument(), {
    headers: { "X-Request-ID": requestIdFrom(req), "Cache-Control": "public, max-age=300" },
  });
}

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
