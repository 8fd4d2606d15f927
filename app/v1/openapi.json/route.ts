import { randomBytes } from "node:crypto";
import { openApiDocument } from "@/lib/api/openapi";

// Documentation is public: it describes the API, not anyone's data.
export function GET(req: Request) {
  const given = req.headers.get("x-request-id");
  const requestId = given && /^[A-Za-z0-9_.-]{1,200}$/.test(given) ? given : `req_${randomBytes(16).toString("hex")}`;
  return Response.json(openApiDocument(), { headers: { "X-Request-ID": requestId, "Cache-Control": "public, max-age=300" } });
}
