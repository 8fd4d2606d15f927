import { ApiProblem, SESSION_ENDED } from "@/lib/client/api";

/**
 * A failure the dashboard's own code found, worded for the clerk (the browser blocked the print tab): shown as it is.
 * Any other error that is not the API's is a request that never got an answer.
 */
export class ClientProblem extends Error {
  override name = "ClientProblem";
}

/** True when a request failed because the session ended (the API's 401), not because of what was sent. */
export function sessionEnded(error: unknown): boolean {
  return error instanceof ApiProblem && error.status === 401;
}

/**
 * One sentence for a failed request, as the dashboard shows it in a toast or above a form: the API's own message,
 * except where that message is written for API clients (a 401 asks for an API key; the clerk has a session).
 */
export function problemText(error: unknown): string {
  if (sessionEnded(error)) return SESSION_ENDED;
  if (error instanceof ClientProblem) return error.message;
  if (!(error instanceof ApiProblem)) return "The server could not be reached. Try again.";
  if (error.status === 429) return "Too many requests: wait a moment and try again.";
  return error.message;
}

interface PlacedFieldError<Name extends string = string> {
  name: Name;
  message: string;
}

interface FormProblems<Name extends string = string> {
  /** The first problem of each of the form's fields, in the API's order. */
  fields: PlacedFieldError<Name>[];
  /** What no field can show, as one sentence (null when every problem found its field). */
  form: string | null;
}

/** `parcels[0].weight` → `parcels.0.weight`: the API's paths (docs/api.md, "Errors") in react-hook-form's spelling. */
export function formPath(apiPath: string): string {
  return apiPath.replace(/\[(\d+)\]/g, ".$1");
}

/**
 * The form field an API path belongs to: the field itself, or the nearest of the form's fields that holds it
 * (`enabled_events.2` belongs to a form's `enabled_events`). Null when the form has no such field.
 */
function owner<Name extends string>(path: string, names: readonly Name[]): Name | null {
  let best: Name | null = null;
  for (const name of names) {
    const holds = path === name || path.startsWith(`${name}.`);
    if (holds && (best === null || name.length > best.length)) best = name;
  }
  return best;
}

/**
 * Sorts a failed request's problems onto a form: each field's first problem under it; whatever names no field of
 * the form (no field, an unknown field, a carrier's message, the network, an ended session) as one form-level
 * sentence. Field names are the form's own (`url`, `parcels.0.weight`).
 */
export function formProblems<Name extends string>(error: unknown, names: readonly Name[]): FormProblems<Name> {
  if (!(error instanceof ApiProblem) || sessionEnded(error)) return { fields: [], form: problemText(error) };
  const fields: PlacedFieldError<Name>[] = [];
  const rest: string[] = [];
  for (const problem of error.errors) {
    const name = problem.field ? owner(formPath(problem.field), names) : null;
    if (name === null) rest.push(problem.field ? `${problem.field} ${problem.message}` : problem.message);
    else if (!fields.some((f) => f.name === name)) fields.push({ name, message: problem.message });
  }
  if (error.errors.length === 0) rest.push(problemText(error));
  return { fields, form: rest.length > 0 ? rest.join(" ") : null };
}

/**
 * Every field path of a form's values, containers and leaves (`{ parcels: [{ weight }] }` → `parcels`, `parcels.0`,
 * `parcels.0.weight`): what formProblems may place an API path on.
 */
export function fieldNames(values: unknown, prefix = ""): string[] {
  if (values === null || typeof values !== "object" || values instanceof Date) return [];
  return Object.entries(values).flatMap(([key, value]) => {
    const name = prefix ? `${prefix}.${key}` : key;
    return [name, ...fieldNames(value, name)];
  });
}

/**
 * An error as shown under its field. The API's messages continue the field's name ("must not be empty"), so they
 * are read as a sentence about it; a carrier's own sentence ("Invalid postal code 00000 for US.") stays as it is.
 */
export function fieldErrorText(label: string, message: string): string {
  if (!/^[a-z]/.test(message)) return message;
  const sentence = `${label} ${message}`;
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

/** A server action's answer (app/(dashboard)/settings/team/actions.ts): its value, or a refusal naming a field. */
type ActionAnswer<T> = ({ ok: true } & T) | { ok: false; message: string; field?: string };

/**
 * A server action's value, or its refusal thrown as the API's would be (an ApiProblem with the field), so forms and
 * buttons that call server actions show refusals as they show the API's.
 */
export function actionValue<T extends object>(answer: ActionAnswer<T>): T {
  if (answer.ok) return answer;
  const field = answer.field ?? null;
  throw new ApiProblem(422, [{ code: "invalid", message: answer.message, field }], [], answer);
}
