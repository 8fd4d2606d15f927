import { ApiProblem } from "@/lib/client/api";
import type { Message } from "@/lib/schemas/message";
import { BuyError, outcomeUnknown } from "./buy-label";
import { placeProblems, type FieldError } from "./field-paths";
import { isTransient } from "./purchase-attempt";

/** What the page shows for a failed rating or purchase; field errors also go onto their fields. */
export interface FailureView {
  /** One sentence saying what happened and what to do. */
  text: string;
  /** Problems to show under their fields. */
  fields: FieldError[];
  /** Problems no field can show. */
  other: string[];
  /** Carrier messages of a carrier's refusal, shown per carrier. */
  messages: Message[];
  /** The draft shipment to open when the outcome must be settled there. */
  shipmentId: string | null;
}

const view = (text: string, more: Partial<FailureView> = {}): FailureView => ({
  text,
  fields: [],
  other: [],
  messages: [],
  shipmentId: null,
  ...more,
});

const NO_SECOND_LABEL = "Press Buy label again: it continues this purchase and cannot buy a second label.";

/** A failure every request can meet: the network, the session, the service, input problems. */
function common(error: unknown, again: string): FailureView | null {
  if (!(error instanceof ApiProblem)) return view(`The server could not be reached. ${again}`);
  if (error.status === 429) return view(`Too many requests: wait a moment. ${again}`);
  if (error.status >= 500) return view(`${error.message} ${again}`);
  const fieldErrors = error.errors.filter((e) => e.field);
  if ((error.status === 400 || error.status === 422) && fieldErrors.length > 0) {
    const placed = placeProblems(error.errors);
    const other = placed.other.map((p) => (p.field ? `${p.field} ${p.message}` : p.message));
    const text = placed.fields.length > 0 ? "Fix the highlighted fields." : "The request was refused.";
    return view(text, { fields: placed.fields, other });
  }
  return null;
}

/** Carrier messages that name one of the form's fields (`details.field`, as the sandbox's do) go onto it too. */
export function carrierFieldErrors(messages: readonly Message[]): FieldError[] {
  const withField = messages
    .filter((m) => m.level === "error" && typeof m.details.field === "string")
    .map((m) => ({ field: m.details.field as string, message: m.message }));
  return placeProblems(withField).fields;
}

export function ratesFailure(error: unknown): FailureView {
  const known = common(error, "Get rates again.");
  if (known) return known;
  const problem = error as ApiProblem;
  return view(problem.message);
}

export function buyFailure(error: BuyError): FailureView {
  const problem = error.problem;
  const shipmentId = error.shipmentId;
  if (error.stage === "buy" && outcomeUnknown(error)) {
    const message =
      problem instanceof ApiProblem
        ? (problem.errors.find((e) => e.code === "purchase_outcome_unknown")?.message ??
          problem.messages.find((m) => m.code === "purchase_outcome_unknown")?.message)
        : undefined;
    return view(message ?? "The carrier may have sold the label: open the shipment to settle it.", {
      shipmentId,
      messages:
        problem instanceof ApiProblem ? problem.messages.filter((m) => m.code !== "purchase_outcome_unknown") : [],
    });
  }
  if (isTransient(problem)) {
    const again = error.stage === "create" ? "Press Buy label again." : NO_SECOND_LABEL;
    return { ...common(problem, again)!, shipmentId };
  }
  const known = common(problem, "");
  if (known) return { ...known, shipmentId };
  const api = problem as ApiProblem;
  if (api.status === 424) {
    const text =
      error.stage === "create"
        ? "No carrier could rate this shipment again. Nothing was bought."
        : "The carrier refused the purchase. Nothing was bought.";
    return view(text, { messages: api.messages, shipmentId, fields: carrierFieldErrors(api.messages) });
  }
  if (api.status === 409) return view(api.message, { shipmentId });
  return view(api.message, { shipmentId });
}
