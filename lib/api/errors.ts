import "server-only";
import {
  AddressIncompleteError,
  AddressInvalidError,
  CustomsRequiredError,
  DomainError,
  ValidationError,
  CarrierFailureError,
  type DomainErrorCode,
  type FieldProblem,
} from "@/lib/errors";
import { log } from "@/lib/log";
import { isCircuitRefusal, isDatabaseUnavailable } from "@/lib/db/unavailable";

/** docs/api.md, "Errors", in one place: every error code and the status it answers with. */
export const ERROR_STATUS = {
  validation_error: 400,
  invalid_json: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  carrier_not_found: 404,
  method_not_allowed: 405,
  state_conflict: 409,
  purchase_outcome_unknown: 409,
  idempotency_in_progress: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  address_incomplete: 422,
  customs_required: 422,
  address_invalid: 422,
  // A carrier's refusal: answered with the carriers' `messages` (and the route's usual keys), not the envelope.
  carrier_failed: 424,
  tracking_not_found: 404,
  rate_limited: 429,
  internal_error: 500,
  unavailable: 503,
  not_configured: 503,
} as const satisfies Record<DomainErrorCode, number> & Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Transport-level failures raised by withApi itself (auth, parsing, limits). */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: { field?: string | null; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export interface ErrorResponseParts {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

function envelope(code: ErrorCode, items: FieldProblem[], headers: Record<string, string> = {}): ErrorResponseParts {
  return {
    status: ERROR_STATUS[code],
    body: { errors: items.map((p) => ({ code, message: p.message, field: p.field })) },
    headers,
  };
}

/**
 * Maps anything thrown below a route to the contract's response; internals never leave the process. A carrier
 * failure answers the carriers' `messages` beside `carrierFailureBody`, the keys the route always answers with.
 */
export function toErrorResponse(
  err: unknown,
  requestId: string,
  carrierFailureBody: Record<string, unknown> = {},
): ErrorResponseParts {
  if (err instanceof ApiError) {
    return envelope(err.code, [{ message: err.message, field: err.options.field ?? null }], err.options.headers);
  }
  if (
    err instanceof ValidationError ||
    err instanceof AddressIncompleteError ||
    err instanceof CustomsRequiredError ||
    err instanceof AddressInvalidError
  ) {
    return envelope(err.code, err.problems);
  }
  if (err instanceof CarrierFailureError) {
    return { status: ERROR_STATUS[err.code], body: { ...carrierFailureBody, messages: err.messages }, headers: {} };
  }
  if (err instanceof DomainError) return envelope(err.code, [{ message: err.message, field: null }]);
  if (isDatabaseUnavailable(err)) {
    // The failure that found the database gone is logged in full; the refusals that follow while it is away (every
    // request, at once) are not, or an outage under traffic would flood the log: the circuit logs it opening.
    if (!isCircuitRefusal(err)) log().error({ msg: "database unavailable", request_id: requestId, err });
    return envelope(
      "unavailable",
      [{ message: "The service is temporarily unavailable. Try again shortly.", field: null }],
      {
        "Retry-After": "5",
      },
    );
  }
  log().error({ msg: "unhandled error", request_id: requestId, err });
  return envelope("internal_error", [
    { message: `An unexpected error occurred. Quote request id ${requestId} when reporting it.`, field: null },
  ]);
}
