import "server-only";
import { ERROR_STATUS, type ErrorCode } from "./errors";
import { requestIdFrom } from "./request-id";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];

function errorResponse(req: Request, code: ErrorCode, message: string, headers: Record<string, string> = {}) {
  return Response.json(
    { errors: [{ code, message, field: null }] },
    { status: ERROR_STATUS[code], headers: { "X-Request-ID": requestIdFrom(req), ...headers } },
  );
}

/** Handlers for the methods a route does not serve: 405 in the contract's envelope, with `Allow`. */
export function otherMethods(...allowed: Method[]): Record<Method, (req: Request) => Response> {
  const allow = allowed.join(", ");
  const handler = (req: Request) =>
    errorResponse(req, "method_not_allowed", `${req.method} is not allowed here; use ${allow}.`, { Allow: allow });
  return Object.fromEntries(METHODS.map((m) => [m, handler])) as Record<Method, (req: Request) => Response>;
}

/** Any path under /v1 that no route serves. */
export function unknownEndpoint(req: Request): Response {
  return errorResponse(req, "not_found", `There is no endpoint ${new URL(req.url).pathname}.`);
}
