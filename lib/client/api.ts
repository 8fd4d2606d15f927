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
  body?: unknown;
  /** Sent as `Idempotency-Key`: one per attempt of a purchase, so a double click or a retry buys once. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

function asArray<T>(value: unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}

/**
 * The dashboard's one way to call the API it sells: same-origin, with the session cookie (the browser sends the
 * `Origin` header that cookie-authenticated writes require).
 */
export async function apiFetch<T>(path: string, request: ApiRequest = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (request.body !== undefined) headers["Content-Type"] = "application/json";
  if (request.idempotencyKey) headers["Idempotency-Key"] = request.idempotencyKey;
  const res = await fetch(path, {
    method: request.method ?? (request.body === undefined ? "GET" : "POST"),
    headers,
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
    credentials: "same-origin",
    cache: "no-store",
    signal: request.signal,
  });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  if (!res.ok) {
    const record = (body ?? {}) as Record<string, unknown>;
    if (res.status === 401 && typeof window !== "undefined") window.dispatchEvent(new Event(SESSION_ENDED_EVENT));
    throw new ApiProblem(res.status, asArray(record.errors), asArray(record.messages), body);
  }
  return body as T;
}
