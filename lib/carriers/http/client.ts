import "server-only";
import { log } from "@/lib/log";
import { CarrierError } from "@/lib/carriers/types";
import { deadlineOf, raced, sleep, timeoutError } from "@/lib/carriers/http/deadline";
import { redactor } from "@/lib/carriers/http/redact";
import { backoffDelay, networkErrorCode, parseRetryAfter, requestNeverSent } from "@/lib/carriers/http/retry";

/**
 * The one HTTP client of every networked carrier adapter: deadline, retries, 429 handling and a log line per
 * attempt live here so that adapters only build requests and parse responses.
 *
 * What comes back: every HTTP response except a 429 is returned to the adapter, *including a 5xx after the last
 * retry* — carriers put their own error code and text in 5xx bodies (UPS, FedEx, Canada Post's "Server" SLM code)
 * and the adapter turns those into messages, falling back to `carrier_unavailable`. Thrown instead:
 * `carrier_timeout` (deadline or per-attempt cap), `carrier_unavailable` (network error after retries) and
 * `carrier_rate_limited` (429 we could not wait out).
 */

/** @public (the interface every networked adapter programs against) */
export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE" | "PATCH";

/** @public (the interface every networked adapter programs against) */
export interface CarrierRequest {
  method: HttpMethod;
  url: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array | URLSearchParams;
  /** e.g. "rate", "ship", "track", "auth": for logs. */
  operation: string;
  /** Safe to send twice. Default: true for GET/PUT/DELETE, false for POST/PATCH; rating/tracking POSTs pass true. */
  idempotent?: boolean;
  /** Cap per attempt; the overall deadline is the client's signal. */
  timeoutMs?: number;
}

/** @public (the interface every networked adapter programs against) */
export interface CarrierResponse {
  status: number;
  headers: Headers;
  body: Uint8Array;
  text(): string;
  /** Throws CarrierError `carrier_bad_response` when the body is not JSON. */
  json<T = unknown>(): T;
}

export interface CarrierHttp {
  request(req: CarrierRequest): Promise<CarrierResponse>;
}

export interface CarrierHttpOptions {
  carrier_name: string;
  carrier_id: string;
  /** Human name for messages ("UPS did not answer in time."); defaults to carrier_name. */
  display_name?: string;
  /** The per-call deadline and client abort; a signal from withDeadline also tells us when that deadline is. */
  signal: AbortSignal;
  fetch?: typeof fetch;
  maxRetries?: number;
  baseDelayMs?: number;
  maxRetryAfterMs?: number;
  logger?: (line: Record<string, unknown>) => void;
  /** Query keys to redact in logged URLs, on top of DEFAULT_REDACT_KEYS. Bodies and headers are never logged. */
  redactKeys?: string[];
  /**
   * Waits for the caller's next carrier slot before every request of the operation but its first (a retry, an OAuth
   * token renewal, a second call): the caller paced the operation itself, and a budget of calls per second counts
   * each request the carrier sees (docs/api.md, "Batches"). It is told how long it may wait (the deadline less room
   * for the request); a slot later than that is not waited for.
   */
  pace?: (withinMs: number | undefined) => Promise<void>;
}

// A retry that starts with almost no time left would turn a meaningful 503 into a timeout; leave it room to answer.
const MIN_ATTEMPT_MS = 100;
const ATTEMPT_TIMEOUT = Symbol("attempt_timeout");

type Attempt =
  | { kind: "response"; response: CarrierResponse }
  | { kind: "network"; code: string | undefined }
  | { kind: "attempt_timeout" };

function bodyBytes(body: CarrierRequest["body"]): number {
  if (body === undefined) return 0;
  if (body instanceof Uint8Array) return body.byteLength;
  return Buffer.byteLength(body.toString());
}

function makeResponse(status: number, headers: Headers, body: Uint8Array, label: string): CarrierResponse {
  let text: string | undefined;
  const readText = (): string => (text ??= new TextDecoder().decode(body));
  return {
    status,
    headers,
    body,
    text: readText,
    json<T = unknown>(): T {
      try {
        return JSON.parse(readText()) as T;
      } catch {
        throw new CarrierError("carrier_bad_response", `${label} sent a response that could not be read.`, { status });
      }
    },
  };
}

export function createCarrierHttp(opts: CarrierHttpOptions): CarrierHttp {
  const label = opts.display_name ?? opts.carrier_name;
  const maxAttempts = Math.max(0, opts.maxRetries ?? 2) + 1;
  const baseDelayMs = opts.baseDelayMs ?? 200;
  const maxRetryAfterMs = opts.maxRetryAfterMs ?? 10_000;
  // Built on first use: the sandbox never calls out, and it is created for every carrier operation.
  let redactUrl: ((url: string) => string) | undefined;
  const redact = (url: string) => (redactUrl ??= redactor(opts.redactKeys))(url);
  const signal = opts.signal;
  const emit = (line: Record<string, unknown>): void => {
    try {
      (opts.logger ?? ((l) => log().info(l)))(line);
    } catch {
      // A broken log sink must not fail a label purchase.
    }
  };
  // Requests started by this client: one operation's (it is made for each).
  let sent = 0;
  // Looked up per call so tests (and instrumentation) that replace globalThis.fetch are honoured.
  const doFetch: typeof fetch = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));

  const fits = (waitMs: number): boolean => {
    const deadline = deadlineOf(signal);
    return deadline === undefined || Date.now() + waitMs + MIN_ATTEMPT_MS <= deadline;
  };

  async function attemptOnce(req: CarrierRequest, line: Record<string, unknown>): Promise<Attempt> {
    const controller = new AbortController();
    const onAbort = (): void => controller.abort(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    const timer =
      req.timeoutMs === undefined ? undefined : setTimeout(() => controller.abort(ATTEMPT_TIMEOUT), req.timeoutMs);
    const started = performance.now();
    try {
      const res = await raced(
        doFetch(req.url, {
          method: req.method,
          headers: req.headers,
          // Copy into a plain ArrayBuffer-backed view: fetch's BodyInit does not take a view over a SharedArrayBuffer.
          body: req.body instanceof Uint8Array ? new Uint8Array(req.body) : req.body,
          signal: controller.signal,
        }),
        controller.signal,
      );
      const body = new Uint8Array(await raced(res.arrayBuffer(), controller.signal));
      Object.assign(line, { status: res.status, response_bytes: body.byteLength });
      return { kind: "response", response: makeResponse(res.status, res.headers, body, label) };
    } catch (error) {
      if (signal.aborted) {
        Object.assign(line, { outcome: "timeout", will_retry: false });
        throw timeoutError(label);
      }
      if (controller.signal.reason === ATTEMPT_TIMEOUT) return { kind: "attempt_timeout" };
      const code = networkErrorCode(error);
      line.error_code = code ?? "unknown";
      return { kind: "network", code };
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      line.duration_ms = Math.round(performance.now() - started);
    }
  }

  // Best effort: a pace that fails (its database away) neither holds back nor fails a call under way, whose outcome
  // would then be unknown for nothing; a wait the deadline cuts short ends as a timeout, like any other.
  async function paced(pace: (withinMs: number | undefined) => Promise<void>): Promise<void> {
    const deadline = deadlineOf(signal);
    try {
      await raced(
        pace(deadline === undefined ? undefined : Math.max(0, deadline - Date.now() - MIN_ATTEMPT_MS)),
        signal,
      );
    } catch (err) {
      // A wait the deadline cut short is a timeout, which the request loop throws next.
      if (!signal.aborted) {
        log().warn({ msg: "carrier request not paced: the pace failed", carrier_name: opts.carrier_name, err });
      }
    }
  }

  async function request(req: CarrierRequest): Promise<CarrierResponse> {
    const idempotent = req.idempotent ?? !(req.method === "POST" || req.method === "PATCH");
    const base = {
      msg: "carrier_call",
      carrier_name: opts.carrier_name,
      carrier_id: opts.carrier_id,
      operation: req.operation,
      method: req.method,
      url: redact(req.url),
      request_bytes: bodyBytes(req.body),
    };
    for (let attempt = 1; ; attempt++) {
      if (sent++ > 0 && opts.pace) await paced(opts.pace);
      if (signal.aborted) throw timeoutError(label);
      const line: Record<string, unknown> = { ...base, attempt, status: null, response_bytes: 0 };
      const canRetry = attempt < maxAttempts;
      let result: Attempt;
      try {
        result = await attemptOnce(req, line);
      } finally {
        if (line.outcome) emit(line); // the deadline fired mid-attempt: log it before the throw leaves
      }

      // Decide, log the attempt with that decision, then wait or finish.
      let waitMs: number | null = null;
      let outcome: string;
      let failure: CarrierError | null = null;
      if (result.kind === "response") {
        const { status, headers } = result.response;
        if (status === 429) {
          // A 429 means the carrier did not act on the request, so any method may be sent again.
          outcome = "rate_limited";
          const retryAfterMs = parseRetryAfter(headers.get("retry-after"));
          if (retryAfterMs !== null && canRetry && retryAfterMs <= maxRetryAfterMs && fits(retryAfterMs)) {
            waitMs = retryAfterMs;
          } else {
            const retry_after_seconds = retryAfterMs === null ? null : Math.ceil(retryAfterMs / 1000);
            failure = new CarrierError("carrier_rate_limited", `${label} is limiting requests; try again later.`, {
              retry_after_seconds,
            });
          }
        } else if (status >= 500) {
          outcome = "server_error";
          const delay = backoffDelay(baseDelayMs, attempt);
          if (idempotent && canRetry && fits(delay)) waitMs = delay;
        } else {
          outcome = status >= 400 ? "client_error" : "ok";
        }
      } else {
        // Retrying a request that may have reached the carrier is only safe when sending it twice changes nothing.
        const retryable = idempotent || (result.kind === "network" && requestNeverSent(result.code));
        const delay = backoffDelay(baseDelayMs, attempt);
        if (retryable && canRetry && fits(delay)) waitMs = delay;
        if (result.kind === "network") {
          outcome = "network_error";
          failure = new CarrierError("carrier_unavailable", `${label} could not be reached. Try again shortly.`);
        } else {
          outcome = "attempt_timeout";
          failure = timeoutError(label);
        }
      }

      // How long the pause is, when there is one: for whoever reads the logs, and the tests that move a fake clock.
      emit({ ...line, outcome, will_retry: waitMs !== null, ...(waitMs !== null && { retry_in_ms: waitMs }) });
      if (waitMs !== null) {
        try {
          await sleep(waitMs, signal);
        } catch {
          throw timeoutError(label);
        }
        continue;
      }
      if (failure) throw failure;
      if (result.kind === "response") return result.response;
    }
  }

  return { request };
}
