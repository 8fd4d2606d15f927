import "server-only";
import { ERROR_STATUS, type ErrorCode } from "./errors";
import { ROUTE_METHODS, type RouteMethod } from "./operation";
import { requestIdFrom } from "./request-id";

function errorResponse(req: Request, code: ErrorCode, message: string, headers: Record<string, string> = {}) {
  return Response.json(
    { errors: [{ code, message, field: null }] },
    { status: ERROR_STATUS[code], headers: { "X-Request-ID": requestIdFrom(req), ...headers } },
  );
}

type Refusal = ((req: Request) => Response) & { refused: true };

/**
 * Handlers for the methods a route does not serve: 405 in the contract's envelope, with `Allow`. Marked `refused`,
 * so the OpenAPI coverage test tells them from a handler someone forgot to declare.
 */
export function otherMethods(...allowed: RouteMethod[]): Record<RouteMethod, Refusal> {
  const allow = allowed.join(", ");
  const handler = Object.assign(
    (req: Request) =>
      errorResponse(req, "method_not_allowed", `${req.method} is not allowed here; use ${allow}.`, { Allow: allow }),
    { refused: true as const },
  );
  return Object.fromEntries(ROUTE_METHODS.map((m) => [m, handler])) as Record<RouteMethod, Refusal>;
}

/** Any path under /v1 that no route serves. */
export function unknownEndpoint(req: Request): Response {
  return errorResponse(req, "not_found", `There is no endpoint ${new URL(req.url).pathname}.`);
}

/** An endpoint of a service this deployment has not set up: 503 in the envelope, saying how to set it up. */
export function notConfigured(how: string): (req: Request) => Response {
  return (req) => errorResponse(req, "not_configured", how);
}
