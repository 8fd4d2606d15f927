import { rejection } from "@/test/carrier-rejection";
import { getEventListeners } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { log } from "@/lib/log";
import { CarrierError } from "@/lib/carriers/types";
import { createCarrierHttp, type CarrierHttpOptions } from "@/lib/carriers/http/client";
import { withDeadline } from "@/lib/carriers/http/deadline";
import { parseRetryAfter } from "@/lib/carriers/http/retry";
import { TokenCache, credentialsKey } from "@/lib/carriers/http/token-cache";

// A real loopback server: each test installs the handler it needs and reads what the server saw.
type Handler = (req: IncomingMessage, res: ServerResponse, hit: number) => void;
let server: Server;
let base: string;
let handle: Handler;
let hits: { method: string; url: string }[];
let closedPort: number;

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push({ method: req.method ?? "", url: req.url ?? "" });
    req.resume(); // drain the body so keep-alive sockets stay usable
    handle(req, res, hits.length);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // A port that was just ours and is now closed: connections to it are refused.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

let lines: Record<string, unknown>[];
beforeEach(() => {
  hits = [];
  lines = [];
  handle = (_req, res) => res.end("{}");
});

function client(signal: AbortSignal, more: Partial<CarrierHttpOptions> = {}) {
  return createCarrierHttp({
    carrier_name: "ups",
    carrier_id: "ups-main",
    display_name: "UPS",
    signal,
    baseDelayMs: 5,
    logger: (line) => lines.push(line),
    ...more,
  });
}

const never = new AbortController().signal;

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
}

/**
 * A fetch without a socket that gives these answers in turn (`null`: never answers): with it, the client's own
 * waits are the only thing that takes time, so a test can tell a wait from no wait on fake timers.
 */
function answering(...answers: ((() => Response) | null)[]) {
  let n = 0;
  return vi.fn((): Promise<Response> => {
    const answer = answers[n++];
    if (answer === undefined) throw new Error("no answer left");
    return answer === null ? new Promise<Response>(() => {}) : Promise.resolve(answer());
  });
}
const respond =
  (status: number, headers: Record<string, string> = {}) =>
  () =>
    new Response("{}", { status, headers });

/** Whether a promise has settled yet, read without awaiting it (for stepping fake timers one ms at a time). */
function watch(promise: Promise<unknown>): { settled: () => boolean } {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  return { settled: () => settled };
}

/** Resolves when the server has received its `n`th request (it is being held or answered by `handle`). */
function arrival(n = 1): Promise<void> {
  return new Promise((resolve) => {
    const check = () => (hits.length >= n ? resolve() : setImmediate(check));
    check();
  });
}

// Time is an input: the deadline, attempt caps and Retry-After waits run on fake timers and are stepped explicitly.
// Only timers are faked; the loopback server and sockets stay real.
afterEach(() => {
  vi.useRealTimers();
});
const fakeClock = () => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });

/**
 * Timers of the given delays set since this was called and never cleared. Picked by delay because the fetch machinery
 * (undici) keeps timers of its own that vi.getTimerCount() would count. withDeadline and the client clear every
 * timer they set, fired or not, once the call settles.
 */
function unclearedTimers(...delays: number[]): () => number {
  const set = vi.spyOn(globalThis, "setTimeout");
  const clear = vi.spyOn(globalThis, "clearTimeout");
  return () =>
    set.mock.calls.filter(
      ([, delay], i) =>
        delays.includes(delay ?? 0) && !clear.mock.calls.some(([handle]) => handle === set.mock.results[i]?.value),
    ).length;
}

describe("deadline", () => {
  it("aborts the in-flight call at the deadline, not before, and rejects with carrier_timeout", async () => {
    let closedUnanswered!: (value: boolean) => void;
    const serverSawAbort = new Promise<boolean>((resolve) => (closedUnanswered = resolve));
    handle = (_req, res) => res.on("close", () => closedUnanswered(!res.writableEnded)); // never answers
    fakeClock();
    const leftover = unclearedTimers(150);
    const call = withDeadline(
      150,
      undefined,
      (signal) => client(signal).request({ method: "GET", url: `${base}/track/1Z`, operation: "track" }),
      "UPS",
    );
    const state = watch(call);
    await arrival();
    await vi.advanceTimersByTimeAsync(149);
    expect(state.settled()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await rejection(call);

    expect(error.code).toBe("carrier_timeout");
    expect(error.message).toBe("UPS did not answer in time.");
    expect(await serverSawAbort).toBe(true);
    expect(leftover()).toBe(0);
    expect(lines).toEqual([
      expect.objectContaining({ outcome: "timeout", attempt: 1, status: null, will_retry: false }),
    ]);
  });

  it("turns an abort of the client's own signal into carrier_timeout named after the carrier", async () => {
    handle = () => {}; // never answers
    const controller = new AbortController();
    const call = client(controller.signal).request({ method: "GET", url: `${base}/x`, operation: "track" });
    await arrival();
    controller.abort();
    const error = await rejection(call);
    expect(error.code).toBe("carrier_timeout");
    expect(error.message).toBe("UPS did not answer in time.");
  });

  it("sends nothing when the call's signal has already aborted", async () => {
    const gone = new AbortController();
    gone.abort();
    const error = await rejection(client(gone.signal).request({ method: "GET", url: `${base}/x`, operation: "track" }));
    expect(error.message).toBe("UPS did not answer in time.");
    expect(hits).toEqual([]);
    expect(lines).toEqual([]);
  });

  it("logs each attempt's duration on the clock", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date", "performance"] });
    vi.advanceTimersByTime(5_000); // the clock does not start at zero
    const fetch = answering(null, respond(200));
    const call = client(never, { fetch, baseDelayMs: 0 }).request({
      method: "GET",
      url: `${base}/x`,
      operation: "track",
      timeoutMs: 80,
    });
    await vi.advanceTimersByTimeAsync(80);
    await call;
    expect(lines.map((l) => [l.outcome, l.duration_ms])).toEqual([
      ["attempt_timeout", 80],
      ["ok", 0],
    ]);
  });

  it("withDeadline rejects on time even when the work ignores its signal, and clears its timer", async () => {
    fakeClock();
    const leftover = unclearedTimers(50, 1000);
    const call = withDeadline(50, undefined, () => new Promise(() => {}));
    const state = watch(call);
    await vi.advanceTimersByTimeAsync(49);
    expect(state.settled()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await rejection(call);
    expect(error.code).toBe("carrier_timeout");
    expect(leftover()).toBe(0);
    await expect(withDeadline(1000, undefined, async () => "done")).resolves.toBe("done");
    expect(leftover()).toBe(0);
  });

  it("caps a single attempt with timeoutMs and retries an idempotent request", async () => {
    handle = (_req, res, hit) => {
      if (hit === 2) json(res, 200, { ok: true });
    };
    fakeClock();
    const call = client(never, { baseDelayMs: 0 }).request({
      method: "GET",
      url: `${base}/x`,
      operation: "track",
      timeoutMs: 80,
    });
    const state = watch(call);
    await arrival();
    await vi.advanceTimersByTimeAsync(79);
    expect(state.settled()).toBe(false);
    expect(lines).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    const res = await call;
    expect(res.json()).toEqual({ ok: true });
    expect(lines.map((l) => l.outcome)).toEqual(["attempt_timeout", "ok"]);
  });
});

describe("retries", () => {
  it("retries 5xx for an idempotent request until it succeeds", async () => {
    handle = (_req, res, hit) => (hit < 3 ? json(res, 503, { error: "busy" }) : json(res, 200, { rates: [1] }));
    const res = await client(never).request({ method: "GET", url: `${base}/rates`, operation: "rate" });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ rates: [1] });
    expect(hits).toHaveLength(3);
    expect(lines.map((l) => [l.attempt, l.status, l.outcome, l.will_retry])).toEqual([
      [1, 503, "server_error", true],
      [2, 503, "server_error", true],
      [3, 200, "ok", false],
    ]);
  });

  it("retries a rating POST marked idempotent", async () => {
    handle = (_req, res, hit) => json(res, hit === 1 ? 502 : 200, {});
    const res = await client(never).request({
      method: "POST",
      url: `${base}/rate`,
      operation: "rate",
      body: "{}",
      idempotent: true,
    });
    expect(res.status).toBe(200);
    expect(hits).toHaveLength(2);
  });

  it("returns the last 5xx response to the adapter so it can read the carrier's error body", async () => {
    handle = (_req, res) => json(res, 500, { response: { errors: [{ code: "9999", message: "down" }] } });
    const res = await client(never).request({ method: "GET", url: `${base}/x`, operation: "track" });
    expect(res.status).toBe(500);
    expect(res.json()).toEqual({ response: { errors: [{ code: "9999", message: "down" }] } });
    expect(hits).toHaveLength(3);
  });

  it("never retries a label purchase (or any POST or PATCH not marked idempotent) on 5xx", async () => {
    handle = (_req, res) => json(res, 503, { error: "busy" });
    for (const method of ["POST", "PATCH"] as const) {
      hits = [];
      const res = await client(never).request({ method, url: `${base}/ship`, operation: "ship", body: "{}" });
      expect(res.status).toBe(503);
      expect(hits).toEqual([{ method, url: "/ship" }]);
    }
  });

  it("returns a 4xx at once, logged as client_error", async () => {
    handle = (_req, res) => json(res, 400, { error: "bad request" });
    const res = await client(never).request({ method: "GET", url: `${base}/x`, operation: "track" });
    expect(res.status).toBe(400);
    expect(lines.map((l) => [l.status, l.outcome, l.will_retry])).toEqual([[400, "client_error", false]]);
  });

  it("logs a network failure without a system code as unknown", async () => {
    const fetch = vi.fn(() => Promise.reject(new TypeError("fetch failed")));
    const error = await rejection(
      client(never, { fetch }).request({ method: "GET", url: `${base}/x`, operation: "track" }),
    );
    expect(error.code).toBe("carrier_unavailable");
    expect(lines.map((l) => [l.outcome, l.error_code])).toEqual([
      ["network_error", "unknown"],
      ["network_error", "unknown"],
      ["network_error", "unknown"],
    ]);
  });

  it("lets go of the call's signal after every attempt", async () => {
    handle = (_req, res, hit) => json(res, hit === 1 ? 503 : 200, {});
    const controller = new AbortController();
    await client(controller.signal).request({ method: "GET", url: `${base}/x`, operation: "track" });
    expect(hits).toHaveLength(2);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("never retries a label purchase when the connection drops after it was sent", async () => {
    handle = (req) => req.socket.destroy();
    const error = await rejection(
      client(never).request({ method: "POST", url: `${base}/ship`, operation: "ship", body: "{}" }),
    );
    expect(error.code).toBe("carrier_unavailable");
    expect(hits).toHaveLength(1);
  });

  it("retries an idempotent request after a dropped connection", async () => {
    handle = (req, res, hit) => (hit === 1 ? req.socket.destroy() : json(res, 200, {}));
    const res = await client(never).request({ method: "GET", url: `${base}/x`, operation: "track" });
    expect(res.status).toBe(200);
    expect(hits).toHaveLength(2);
  });

  it("gives carrier_unavailable after retrying a refused connection, for any method", async () => {
    for (const method of ["GET", "POST"] as const) {
      lines = [];
      const error = await rejection(
        client(never).request({ method, url: `http://127.0.0.1:${closedPort}/x`, operation: "ship" }),
      );
      expect(error.code).toBe("carrier_unavailable");
      expect(error.message).toBe("UPS could not be reached. Try again shortly.");
      // Refused means nothing was sent, so even a POST is safe to try again.
      expect(lines.map((l) => [l.attempt, l.outcome, l.error_code])).toEqual([
        [1, "network_error", "ECONNREFUSED"],
        [2, "network_error", "ECONNREFUSED"],
        [3, "network_error", "ECONNREFUSED"],
      ]);
    }
  });

  it("stops retrying when the backoff would run past the deadline", async () => {
    handle = (_req, res) => json(res, 503, {});
    const res = await withDeadline(300, undefined, (signal) =>
      client(signal, { baseDelayMs: 1000 }).request({ method: "GET", url: `${base}/x`, operation: "track" }),
    );
    expect(res.status).toBe(503);
    expect(hits).toHaveLength(1);
  });
});

describe("429", () => {
  it("waits exactly Retry-After and retries, even a POST", async () => {
    handle = (_req, res, hit) => (hit === 1 ? json(res, 429, {}, { "retry-after": "1" }) : json(res, 200, { ok: 1 }));
    let decided!: () => void;
    const waiting = new Promise<void>((resolve) => (decided = resolve));
    fakeClock();
    const call = withDeadline(3000, undefined, (signal) =>
      client(signal, {
        logger: (line) => {
          lines.push(line);
          if (line.outcome === "rate_limited") decided();
        },
      }).request({ method: "POST", url: `${base}/ship`, operation: "ship", body: "{}" }),
    );
    await waiting;
    expect(lines).toEqual([
      expect.objectContaining({ status: 429, outcome: "rate_limited", will_retry: true, retry_in_ms: 1000 }),
    ]);
    await vi.advanceTimersByTimeAsync(999);
    expect(hits).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    const res = await call;
    expect(res.json()).toEqual({ ok: 1 });
    expect(hits).toHaveLength(2);
  });

  it("waits a Retry-After of maxRetryAfterMs that leaves the retry exactly 100 ms before the deadline", async () => {
    fakeClock();
    const fetch = answering(respond(429, { "retry-after": "1" }), respond(200));
    const call = withDeadline(1100, undefined, (signal) =>
      client(signal, { fetch, maxRetryAfterMs: 1000 }).request({ method: "GET", url: `${base}/x`, operation: "rate" }),
    );
    await vi.advanceTimersByTimeAsync(999);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect((await call).status).toBe(200);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it("does not wait when less than 100 ms would be left for the retry", async () => {
    fakeClock(); // never advanced: any wait would never end
    const fetch = answering(respond(429, { "retry-after": "1" }));
    const error = await rejection(
      withDeadline(1099, undefined, (signal) =>
        client(signal, { fetch }).request({ method: "GET", url: `${base}/x`, operation: "rate" }),
      ),
    );
    expect(error.code).toBe("carrier_rate_limited");
    expect(error.messages[0]?.details).toEqual({ retry_after_seconds: 1 });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it("throws carrier_rate_limited without waiting when Retry-After is past the deadline", async () => {
    handle = (_req, res) => json(res, 429, {}, { "retry-after": "30" });
    fakeClock(); // never advanced: any wait would never end
    const error = await rejection(
      withDeadline(500, undefined, (signal) =>
        client(signal).request({ method: "GET", url: `${base}/x`, operation: "rate" }),
      ),
    );
    expect(error.code).toBe("carrier_rate_limited");
    expect(error.message).toBe("UPS is limiting requests; try again later.");
    expect(error.messages[0]?.details).toEqual({ retry_after_seconds: 30 });
    expect(lines).toEqual([expect.objectContaining({ outcome: "rate_limited", will_retry: false })]);
    expect(hits).toHaveLength(1);
  });

  it("throws carrier_rate_limited when the carrier gives no Retry-After or a wait above maxRetryAfterMs", async () => {
    handle = (_req, res) => json(res, 429, {});
    const noHeader = await rejection(client(never).request({ method: "GET", url: `${base}/x`, operation: "rate" }));
    expect(noHeader.messages[0]?.details).toEqual({ retry_after_seconds: null });

    handle = (_req, res) => json(res, 429, {}, { "retry-after": "5" });
    const tooLong = await rejection(
      client(never, { maxRetryAfterMs: 1000 }).request({ method: "GET", url: `${base}/x`, operation: "rate" }),
    );
    expect(tooLong.messages[0]?.details).toEqual({ retry_after_seconds: 5 });
    expect(hits).toHaveLength(2);
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    const now = Date.parse("2025-06-02T12:00:00Z");
    expect(parseRetryAfter("2", now)).toBe(2000);
    expect(parseRetryAfter("Mon, 02 Jun 2025 12:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Mon, 02 Jun 2025 11:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});

describe("pace", () => {
  it("waits for the caller's pace before each request after the operation's first: retries and second calls", async () => {
    const order: string[] = [];
    const fetch = vi.fn(async (url: string | URL | Request) => {
      order.push(`fetch ${String(url).slice(base.length)}`);
      return order.length === 1
        ? new Response("{}", { status: 429, headers: { "retry-after": "0" } })
        : new Response("{}");
    });
    const pace = vi.fn(async () => void order.push("pace"));
    const http = client(never, { fetch: fetch as typeof globalThis.fetch, pace });
    await http.request({ method: "POST", url: `${base}/token`, operation: "token", body: "{}" });
    await http.request({ method: "GET", url: `${base}/rate`, operation: "rate" });
    // The token call's retry after its 429, and the rate call: each waited; the first request did not.
    expect(order).toEqual(["fetch /token", "pace", "fetch /token", "pace", "fetch /rate"]);
  });

  it("is told how long it may wait: the deadline, less room for the request", async () => {
    const fetch = answering(respond(503), respond(200));
    const pace = vi.fn(async (_withinMs: number | undefined) => {});
    const res = await withDeadline(3_000, undefined, (signal) =>
      client(signal, { fetch, pace }).request({ method: "GET", url: `${base}/x`, operation: "rate" }),
    );
    expect(res.status).toBe(200);
    expect(pace).toHaveBeenCalledTimes(1);
    const withinMs = pace.mock.calls[0]![0]!;
    // 3 s less the 100 ms a request is left at least, less the time the first attempt and its backoff took.
    expect(withinMs).toBeLessThanOrEqual(2_900);
    expect(withinMs).toBeGreaterThan(2_000);
  });

  it("a pace that fails (its database away) does not hold the request back, and says so", async () => {
    const warn = vi.spyOn(log(), "warn").mockImplementation(() => {});
    const fetch = answering(respond(503), respond(200));
    const failure = new Error("connection refused");
    const pace = vi.fn(async (_withinMs: number | undefined) => {
      throw failure;
    });
    const res = await client(never, { fetch, pace }).request({ method: "GET", url: `${base}/x`, operation: "rate" });
    expect(res.status).toBe(200);
    expect(fetch).toHaveBeenCalledTimes(2);
    // Without a deadline it may wait as long as it takes.
    expect(pace).toHaveBeenCalledWith(undefined);
    expect(warn).toHaveBeenCalledWith({
      msg: "carrier request not paced: the pace failed",
      carrier_name: "ups",
      err: failure,
    });
    warn.mockRestore();
  });

  it("sends nothing once the deadline passed during the wait, and blames the deadline, not the pace", async () => {
    const warn = vi.spyOn(log(), "warn").mockImplementation(() => {});
    const fetch = answering(respond(503), respond(200));
    const controller = new AbortController();
    const pace = vi.fn(async () => controller.abort());
    const call = client(controller.signal, { fetch, pace }).request({
      method: "GET",
      url: `${base}/x`,
      operation: "rate",
    });
    await expect(call).rejects.toMatchObject({ code: "carrier_timeout" });
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(pace).toHaveBeenCalledTimes(1);
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  });
});

describe("responses and logs", () => {
  it("throws carrier_bad_response when a body that should be JSON is not", async () => {
    handle = (_req, res) => res.writeHead(200, { "content-type": "application/json" }).end("<html>oops");
    const res = await client(never).request({ method: "GET", url: `${base}/x`, operation: "track" });
    expect(res.text()).toBe("<html>oops");
    const error = (() => {
      try {
        res.json();
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(CarrierError);
    expect((error as CarrierError).messages).toEqual([
      {
        code: "carrier_bad_response",
        message: "UPS sent a response that could not be read.",
        level: "error",
        details: { status: 200 },
      },
    ]);
  });

  it("counts the bytes of a binary or text body in the log line", async () => {
    await client(never).request({ method: "PUT", url: `${base}/x`, operation: "upload", body: new Uint8Array(300) });
    await client(never).request({ method: "PUT", url: `${base}/x`, operation: "upload", body: "héllo" });
    expect(lines.map((l) => l.request_bytes)).toEqual([300, 6]);
  });

  it("logs through the service's logger when given none", async () => {
    const info = vi.spyOn(log(), "info").mockImplementation(() => {});
    try {
      await createCarrierHttp({ carrier_name: "ups", carrier_id: "ups-main", signal: never }).request({
        method: "GET",
        url: `${base}/x`,
        operation: "track",
      });
      expect(info).toHaveBeenCalledWith(
        expect.objectContaining({ msg: "carrier_call", carrier_id: "ups-main", outcome: "ok", attempt: 1 }),
      );
    } finally {
      info.mockRestore();
    }
  });

  it("logs one line per attempt without secrets, headers or bodies", async () => {
    handle = (_req, res) => json(res, 200, { access_token: "tok-from-carrier" });
    const body = new URLSearchParams({ grant_type: "client_credentials", client_secret: "body-secret-1" });
    await client(never, { redactKeys: ["merchant"] }).request({
      method: "POST",
      url: `${base}/oauth/token?client_id=abc&client_secret=s3cr3t-value&merchant=M-42&apiKey=k-9`,
      headers: { Authorization: "Basic dXNlcjpodW50ZXIy", "x-api-key": "hdr-key-7" },
      body,
      operation: "auth",
    });
    expect(lines).toHaveLength(1);
    const text = JSON.stringify(lines);
    for (const secret of [
      "dXNlcjpodW50ZXIy",
      "s3cr3t-value",
      "M-42",
      "k-9",
      "hdr-key-7",
      "body-secret-1",
      "tok-from-carrier",
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(lines[0]).toEqual({
      msg: "carrier_call",
      carrier_name: "ups",
      carrier_id: "ups-main",
      operation: "auth",
      method: "POST",
      url: `${base}/oauth/token?client_id=abc&client_secret=[redacted]&merchant=[redacted]&apiKey=[redacted]`,
      status: 200,
      duration_ms: expect.any(Number),
      attempt: 1,
      request_bytes: body.toString().length,
      response_bytes: JSON.stringify({ access_token: "tok-from-carrier" }).length,
      outcome: "ok",
      will_retry: false,
    });
  });
});

describe("TokenCache", () => {
  function setup(expiresInSeconds = 3600) {
    let now = 1_000_000;
    const cache = new TokenCache({ now: () => now });
    let calls = 0;
    const fetch = async () => ({ token: `t${++calls}`, expiresInSeconds });
    return { cache, fetch, calls: () => calls, advance: (ms: number) => (now += ms) };
  }

  it("reuses a token until the refresh margin, then refreshes before it expires", async () => {
    const { cache, fetch, calls, advance } = setup(3600);
    expect(await cache.get("k", fetch)).toBe("t1");
    advance(54 * 60_000);
    expect(await cache.get("k", fetch)).toBe("t1");
    advance(60_001); // 55 min in: inside the 5 min margin of a 60 min token
    expect(await cache.get("k", fetch)).toBe("t2");
    expect(calls()).toBe(2);
  });

  it("still caches a short-lived token: the margin is at most half its lifetime", async () => {
    const { cache, fetch, advance } = setup(60);
    expect(await cache.get("k", fetch)).toBe("t1");
    advance(29_000);
    expect(await cache.get("k", fetch)).toBe("t1");
    advance(2_000);
    expect(await cache.get("k", fetch)).toBe("t2");
  });

  it("runs one refresh for many concurrent callers", async () => {
    const cache = new TokenCache();
    let calls = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const fetch = async () => {
      calls++;
      await gate;
      return { token: "shared", expiresInSeconds: 3600 };
    };
    const all = Promise.all(Array.from({ length: 10 }, () => cache.get("k", fetch)));
    release();
    expect(await all).toEqual(Array(10).fill("shared"));
    expect(calls).toBe(1);
  });

  it("does not cache a failed fetch", async () => {
    const cache = new TokenCache();
    let calls = 0;
    const fetch = async () => {
      if (++calls === 1) throw new CarrierError("carrier_auth_failed", "bad credentials");
      return { token: "ok", expiresInSeconds: 3600 };
    };
    await expect(cache.get("k", fetch)).rejects.toThrow("bad credentials");
    expect(await cache.get("k", fetch)).toBe("ok");
    expect(calls).toBe(2);
  });

  it("refreshes after invalidate, but keeps a newer token than the one refused", async () => {
    const { cache, fetch, calls } = setup();
    expect(await cache.get("k", fetch)).toBe("t1");
    cache.invalidate("k");
    expect(await cache.get("k", fetch)).toBe("t2");
    cache.invalidate("k", "t1"); // a late 401 for the old token
    expect(await cache.get("k", fetch)).toBe("t2");
    expect(calls()).toBe(2);
  });

  it("refreshes at the refresh time exactly, not a millisecond later", async () => {
    const { cache, fetch, advance } = setup(3600);
    expect(await cache.get("k", fetch)).toBe("t1");
    advance(55 * 60_000 - 1);
    expect(await cache.get("k", fetch)).toBe("t1");
    advance(1);
    expect(await cache.get("k", fetch)).toBe("t2");
  });

  it("never caches a token without a usable lifetime", async () => {
    for (const lifetime of [0, -60, Number.POSITIVE_INFINITY, Number.NaN]) {
      const { cache, fetch, calls } = setup(lifetime);
      expect(await cache.get("k", fetch)).toBe("t1");
      expect(await cache.get("k", fetch)).toBe("t2");
      expect(calls()).toBe(2);
    }
  });

  it("never hands out again a token without a lifetime, nor the one it replaced, even when the clock steps back", async () => {
    const { cache, advance } = setup();
    const lifetimes = [3600, 0, 3600];
    let calls = 0;
    const fetch = async () => ({ token: `t${calls + 1}`, expiresInSeconds: lifetimes[calls++]! });
    expect(await cache.get("k", fetch)).toBe("t1");
    advance(55 * 60_000); // t1 is due for a refresh
    expect(await cache.get("k", fetch)).toBe("t2"); // and comes back without a lifetime
    advance(-60_000); // the system clock is set back a minute
    expect(await cache.get("k", fetch)).toBe("t3");
  });

  it("refreshes after a 401 for the current token, and after clear", async () => {
    const { cache, fetch } = setup();
    expect(await cache.get("k", fetch)).toBe("t1");
    cache.invalidate("k", "t1");
    expect(await cache.get("k", fetch)).toBe("t2");
    cache.invalidate("other-key", "t2");
    expect(await cache.get("k", fetch)).toBe("t2");
    cache.clear();
    expect(await cache.get("k", fetch)).toBe("t3");
  });

  it("a fetch that outlives a clear does not stop the next one from being shared", async () => {
    const cache = new TokenCache();
    const gates: (() => void)[] = [];
    let calls = 0;
    const fetch = async () => {
      const n = ++calls;
      await new Promise<void>((r) => gates.push(r));
      // The first token comes without a lifetime, so it is not cached: only sharing can answer the third caller.
      return { token: `t${n}`, expiresInSeconds: n === 1 ? 0 : 3600 };
    };
    const first = cache.get("k", fetch);
    cache.clear();
    const second = cache.get("k", fetch);
    gates[0]!();
    expect(await first).toBe("t1");
    const third = cache.get("k", fetch);
    gates[1]!();
    expect(await Promise.all([second, third])).toEqual(["t2", "t2"]);
    expect(calls).toBe(2);
  });

  it("keys nested credentials the same in any property order, but arrays in their order", () => {
    const orders = [
      { b: 2, d: 4, a: 1, c: { y: [1, { q: 1, p: 2 }], x: 0 } },
      { a: 1, b: 2, c: { x: 0, y: [1, { p: 2, q: 1 }] }, d: 4 },
      { d: 4, c: { y: [1, { q: 1, p: 2 }], x: 0 }, b: 2, a: 1 },
      { c: { x: 0, y: [1, { p: 2, q: 1 }] }, a: 1, d: 4, b: 2 },
    ];
    const keys = new Set(orders.map((o) => credentialsKey("ups", o)));
    expect(keys.size).toBe(1);
    expect(credentialsKey("ups", { a: 1, b: 2, c: { x: 0, y: [{ p: 2, q: 1 }, 1] }, d: 4 })).not.toBe([...keys][0]);
    // A list is not an object with numbered properties.
    expect(credentialsKey("ups", { scopes: ["a", "b"] })).not.toBe(
      credentialsKey("ups", { scopes: { 0: "a", 1: "b" } }),
    );
  });

  it("keys credentials by hash, independent of property order", () => {
    const a = credentialsKey("fedex", { client_id: "id", client_secret: "very-secret" });
    const b = credentialsKey("fedex", { client_secret: "very-secret", client_id: "id" });
    expect(a).toBe(b);
    expect(a).toMatch(/^fedex:[0-9a-f]{64}$/);
    expect(a).not.toContain("very-secret");
    expect(credentialsKey("fedex", { client_id: "id", client_secret: "other" })).not.toBe(a);
  });
});
