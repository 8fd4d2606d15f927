import "server-only";
import { ERROR_STATUS, type ErrorCode } from "./errors";
import { ROUTE_METHODS, type RouteMethod } from "./operation";
import { requestIdFrom, requestIdOf } from "./request-id";
import { servedMethods } from "./served-methods";
import { excerpt } from "@/lib/validation";

/** An answer in the contract's error envelope, as parts: a Response here, raw HTTP at the front door. */
interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function errorAnswer(requestId: string, code: ErrorCode, message: string, headers: Record<string, string> = {}) {
  return {
    status: ERROR_STATUS[code],
    headers: { "Content-Type": "application/json", "X-Request-ID": requestId, ...headers },
    body: JSON.stringify({ errors: [{ code, message, field: null }] }),
  } satisfies ErrorAnswer;
}

function errorResponse(req: Request, code: ErrorCode, message: string, headers: Record<string, string> = {}) {
  const answer = errorAnswer(requestIdFrom(req), code, message, headers);
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
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
  return errorResponse(req, "not_found", `There is no endpoint ${excerpt(new URL(req.url).pathname, 80)}.`);
}

/** An endpoint of a service this deployment has not set up: 503 in the envelope, saying how to set it up. */
export function notConfigured(how: string): (req: Request) => Response {
  return (req) => errorResponse(req, "not_configured", how);
}

/**
 * A method no route file can serve (TRACE, PROPFIND, one Node.js does not know, CONNECT), refused by the front door
 * (lib/front-door.ts) before Next.js sees it: 405 in the envelope, with `Allow` when the path is one the app serves.
 * `target` is the request's path (or null when the request could not be parsed that far).
 */
export function unservedMethod(method: string | null, target: string | null, requestIdHeader?: string): ErrorAnswer {
  const requestId = requestIdOf(requestIdHeader);
  const what = method ?? "This method";
  const allowed = target === null ? null : servedMethods(pathOf(target));
  if (!allowed) return errorAnswer(requestId, "method_not_allowed", `${what} is not served here.`);
  const allow = allowed.join(", ");
  return errorAnswer(requestId, "method_not_allowed", `${what} is not allowed here; use ${allow}.`, { Allow: allow });
}

/** A request target's path: usually the path itself, but a client may send a whole URL, or something unreadable. */
function pathOf(target: string): string {
  try {
    return new URL(target, "http://localhost").pathname;
  } catch {
    return target;
  }
}

/**
 * A request target Next.js would answer with a bare 500 or a redirect to a host the client named (lib/front-door.ts):
 * `*`, a whole URL, a path whose percent-escapes are not UTF-8. Null when the target is an ordinary path.
 */
export function unreadableTarget(target: string, requestIdHeader?: string): ErrorAnswer | null {
  const requestId = requestIdOf(requestIdHeader);
  if (!target.startsWith("/") || target.startsWith("//")) {
    return errorAnswer(requestId, "validation_error", "The request target must be a path, such as /v1/shipments.");
  }
  const path = target.split("?", 1)[0]!;
  try {
    decodeURIComponent(path);
    return null;
  } catch {
    return errorAnswer(requestId, "validation_error", "The path's percent-escapes are not valid UTF-8.");
  }
}

/** OPTIONS, answered for the app's paths from the one table of served methods; an unknown path is a 404. */
export function optionsAnswer(target: string, requestIdHeader?: string): ErrorAnswer {
  const requestId = requestIdOf(requestIdHeader);
  const allowed = servedMethods(pathOf(target));
  if (!allowed) return errorAnswer(requestId, "not_found", "There is no endpoint here.");
  const allow = [...allowed, ...(allowed.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
  return { status: 204, headers: { "X-Request-ID": requestId, Allow: allow }, body: "" };
}
