import type { z } from "zod";
import type { Role } from "@/lib/auth/roles";

/** The methods a route file may export; each is either a declared operation or refused with 405 (fallback.ts). */
export const ROUTE_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type RouteMethod = (typeof ROUTE_METHODS)[number];

/**
 * An API operation as declared beside its route (through withApi, or publicEndpoint for the few that need no key).
 * The OpenAPI document is generated from these declarations and their zod schemas, nothing else.
 */
interface OperationDoc {
  /** The operationId. */
  id: string;
  summary: string;
  /** Defaults to the path's first segment after /v1 ("Shipments", "Trackers", …). */
  tag?: string;
  /** A 2xx answer's JSON, or the media types of a file it downloads. */
  response?: z.ZodType | { files: readonly string[] };
  /**
   * Status → what it means. 2xx answer `response`; 424 the carriers' `messages` (beside the route's carrierFailure
   * keys); any other status the error envelope, or, with `orCarrierMessages`, either of the two (404 is also how
   * tracking_not_found answers).
   */
  responses: Record<number, string | { description: string; orCarrierMessages: true }>;
}

export interface Operation {
  /** Path template, e.g. `/v1/shipments/{id}`; also the `route` of the request's log line. */
  route: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The body may be left out (no Content-Type, nothing sent): it is then read as `{}`. */
  optionalBody?: true;
  /**
   * A file may come instead of JSON: `multipart/form-data` (the file in `file`, the JSON body in the `options` field)
   * or the file itself as `types`' media type (the JSON body in the `Shipwell-Options` header). Up to `maxBytes`.
   */
  upload?: { types: readonly string[]; maxBytes: number };
  /** Keys a carrier failure answers beside the carriers' `messages`, so the route keeps its usual keys. */
  carrierFailure?: Record<string, unknown>;
  /** No API key needed. */
  public?: boolean;
  /**
   * The least role a signed-in person needs (docs/api.md, "Accounts and roles"); others get 403 `forbidden`. API
   * keys act for their whole organization and pass.
   */
  role?: Role;
  doc: OperationDoc;
}

/** A route handler that carries the declaration of the operation it serves. */
export type DescribedHandler<H> = H & { operation: Operation };

export function describe<H extends object>(handler: H, operation: Operation): DescribedHandler<H> {
  return Object.assign(handler, { operation });
}

/** A handler without an API key (the API's own description): declared like the others, authenticated by nobody. */
export function publicEndpoint<H extends (req: Request) => Response | Promise<Response>>(
  operation: Omit<Operation, "public" | "params" | "query" | "body" | "carrierFailure">,
  handler: H,
): DescribedHandler<H> {
  return describe(handler, { ...operation, public: true });
}
