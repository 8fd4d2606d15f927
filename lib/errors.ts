import type { CarrierMessage } from "@/lib/carriers/types";

/**
 * Domain errors: what went wrong, in the product's words. They carry no status and no response body;
 * lib/api/errors.ts maps each code to a status once, and a route declares the body it answers a carrier failure with.
 */
export interface FieldProblem {
  message: string;
  field: string | null;
}

export type DomainErrorCode =
  | "validation_error"
  | "forbidden"
  | "not_found"
  | "carrier_not_found"
  | "state_conflict"
  | "purchase_outcome_unknown"
  | "carrier_failed"
  | "tracking_not_found"
  | "address_incomplete"
  | "customs_required"
  | "address_invalid";

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class NotFoundError extends DomainError {
  constructor(message = "The resource does not exist.") {
    super("not_found", message);
  }
}

/** The acting person's role does not allow this (Settings → Team: only an owner touches owners). */
export class ForbiddenError extends DomainError {
  constructor(message: string) {
    super("forbidden", message);
  }
}

export class ValidationError extends DomainError {
  readonly problems: FieldProblem[];
  constructor(problems: FieldProblem[] | string, field: string | null = null) {
    const list = typeof problems === "string" ? [{ message: problems, field }] : problems;
    super("validation_error", list[0]?.message ?? "The request is not valid.");
    this.problems = list;
  }
}

/**
 * A stored shipment was rated with less of an address than buying its label needs (docs/api.md, "Managed mode:
 * shipments"): the request is well formed, the shipment is not ready. Each problem names the field, as validation does.
 */
export class AddressIncompleteError extends DomainError {
  readonly problems: FieldProblem[];
  constructor(problems: FieldProblem[]) {
    super("address_incomplete", problems[0]?.message ?? "The shipment's addresses are incomplete.");
    this.problems = problems;
  }
}

/**
 * A label across a customs border needs a customs declaration (docs/api.md, "Customs"): the request is well formed,
 * the parcel cannot be declared. Each problem names the field, as validation does.
 */
export class CustomsRequiredError extends DomainError {
  readonly problems: FieldProblem[];
  constructor(problems: FieldProblem[]) {
    super("customs_required", problems[0]?.message ?? "The parcel needs a customs declaration.");
    this.problems = problems;
  }
}

/**
 * `validate: true` on a shipment found an address that cannot be delivered to (docs/api.md, "Addresses"): each
 * problem names the address and field (`recipient.postal_code`). Sending `validate: false` ships anyway.
 */
export class AddressInvalidError extends DomainError {
  readonly problems: FieldProblem[];
  constructor(problems: FieldProblem[]) {
    super("address_invalid", problems[0]?.message ?? "An address cannot be delivered to.");
    this.problems = problems;
  }
}

export class StateConflictError extends DomainError {
  constructor(message: string) {
    super("state_conflict", message);
  }
}

/**
 * An earlier purchase of the shipment reached the carrier and its answer was lost, and the carrier could not tell
 * whether it sold the label: buying now could buy a second one. The message says what the client can do.
 */
export class PurchaseOutcomeUnknownError extends DomainError {
  constructor(message: string) {
    super("purchase_outcome_unknown", message);
  }
}

export class CarrierNotFoundError extends DomainError {
  constructor(message: string) {
    super("carrier_not_found", message);
  }
}

/**
 * The carrier refused or failed the operation; its `messages` say why. `tracking_not_found` when the carrier does
 * not know the number asked about, `carrier_failed` for everything else.
 */
export class CarrierFailureError extends DomainError {
  constructor(
    readonly messages: CarrierMessage[],
    reason: Extract<DomainErrorCode, "carrier_failed" | "tracking_not_found"> = "carrier_failed",
  ) {
    super(reason, messages[0]?.message ?? "The carrier request failed.");
  }
}
