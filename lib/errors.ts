import type { CarrierMessage } from "@/lib/carriers/types";

/**
 * Domain errors: what went wrong in the product's words. They know nothing of HTTP;
 * lib/api/errors.ts maps each code to a status once.
 */
export interface FieldProblem {
  message: string;
  field: string | null;
}

export class DomainError extends Error {
  constructor(
    readonly code: string,
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

export class ValidationError extends DomainError {
  readonly problems: FieldProblem[];
  constructor(problems: FieldProblem[] | string, field: string | null = null) {
    const list = typeof problems === "string" ? [{ message: problems, field }] : problems;
    super("validation_error", list[0]?.message ?? "The request is not valid.");
    this.problems = list;
  }
}

export class StateConflictError extends DomainError {
  constructor(message: string) {
    super("state_conflict", message);
  }
}

export class CarrierNotFoundError extends DomainError {
  constructor(message: string) {
    super("carrier_not_found", message);
  }
}

/** The carrier refused or failed: answered with the carriers' `messages`, not the error envelope. */
export class CarrierFailureError extends DomainError {
  constructor(
    readonly messages: CarrierMessage[],
    readonly extra: Record<string, unknown> = {},
    /** 424 by default; 404 when the carrier does not know the tracking number. */
    readonly status: 404 | 424 = 424,
  ) {
    super("carrier_failure", messages[0]?.message ?? "The carrier request failed.");
  }
}
