import type { Message } from "@/lib/schemas/message";

/** What a 401 means in the dashboard: the session cookie expired or was revoked (the API's text asks for a key). */
export const SESSION_ENDED = "Your session ended: sign in again.";

/** Fired on `window` when a request answers 401, so the page can offer to sign in again (SessionEndedDialog). */
export const SESSION_ENDED_EVENT = "shipwell:session-ended";

/** One problem from the API's error envelope (docs/api.md, "Errors"): `field` is a path such as `parcels[0].weight`. */
export interface ApiFieldError {
  code: string;
  message: string;
  field: string | null;
}

/**
 * A non-2xx answer from /v1, read into what the dashboard shows: the envelope's errors (field errors go next to their
 * field), or the carriers' `messages` of a 424, and the status. Network failures stay plain `TypeError`s.
 */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly errors: ApiFieldError[],
    readonly messages: Message[],
    readonly body: unknown,
  ) {
    super(
      status === 401
        ? SESSION_ENDED
        : (errors[0]?.message ??
            messages.find((m) => m.level === "error")?.message ??
            `The request failed (${status}).`),
    );
    this.name = "ApiProblem";
  }
}

export interface ApiRequest {
  method?: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  /** JSON, or a FormData for an upload (`file` and the JSON `options`, as POST /v1/batches takes a CSV). */
  body?: unknown;
  /** Sent as `Idempotency-Key`: one per attempt (a purchase, an upload), so a double click or a retry acts once. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

function asArray<T>(value: unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}

function send(path: string, request: ApiRequest, accept: string): Promise<Response> {
  const headers: Record<string, string> = { Accept: accept };
  // A form (a file upload) sets its own multipart Content-Type, boundary included.
  const form = typeof FormData !== "undefined" && request.body instanceof FormData;
  if (request.body !== undefined && !form) headers["Content-Type"] = "application/json";
  if (request.idempotencyKey) headers["Idempotency-Key"] = request.idempotencyKey;
  return fetch(path, {
    method: request.method ?? (request.body === undefined ? "GET" : "POST"),
    headers,
    body: request.body === undefined ? undefined : form ? (request.body as FormData) : JSON.stringify(request.body),
    credentials: "same-origin",
    cache: "no-store",
    signal: request.signal,
  });
}

function parsed(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return text;
  }
}

/** A non-2xx answer as an ApiProblem; a 401 also tells the page the session ended (SessionEndedDialog). */
export function problemOf(status: number, body: unknown): ApiProblem {
  const record = (body ?? {}) as Record<string, unknown>;
  if (status === 401 && typeof window !== "undefined") window.dispatchEvent(new Event(SESSION_ENDED_EVENT));
  return new ApiProblem(status, asArray(record.errors), asArray(record.messages), body);
}

/**
 * The dashboard's one way to call the API it sells: same-origin, with the session cookie (the browser sends the
 * `Origin` header that cookie-authenticated writes require).
 */
export async function apiFetch<T>(path: string, request: ApiRequest = {}): Promise<T> {
  const res = await send(path, request, "application/json");
  const body = parsed(await res.text());
  if (!res.ok) throw problemOf(res.status, body);
  return body as T;
}

/** A file the API answers (a label, a sheet of labels): its bytes and the name the server gave it. */
export async function apiFile(
  path: string,
  request: Pick<ApiRequest, "signal"> = {},
): Promise<{ blob: Blob; contentDisposition: string | null }> {
  const res = await send(path, request, "*/*");
  if (!res.ok) throw problemOf(res.status, parsed(await res.text()));
  return { blob: await res.blob(), contentDisposition: res.headers.get("Content-Disposition") };
}

/** How long a request with a key the server is still running is waited for (`Retry-After: 1`), in tries. */
const IN_PROGRESS_TRIES = 30;

const busy = (error: unknown) =>
  error instanceof ApiProblem && error.status === 409 && error.errors[0]?.code === "idempotency_in_progress";

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A request sent again with an earlier one's `Idempotency-Key` while the server still works on that one (a double
 * click, a resubmit after a lost answer) is answered 409 `idempotency_in_progress`: it waits for that answer, then
 * gets it (docs/api.md, "Idempotency").
 */
export async function untilAnswered<T>(
  call: () => Promise<T>,
  sleep: (ms: number) => Promise<void> = wait,
): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await call();
    } catch (error) {
      if (!busy(error) || tries >= IN_PROGRESS_TRIES) throw error;
      await sleep(1000);
    }
  }
}
