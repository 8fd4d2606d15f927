import { describe, expect, it, vi } from "vitest";
import { backoffDelay, networkErrorCode, parseRetryAfter } from "./retry";

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-11-24T12:00:00Z");

  it("reads delta-seconds, spaces around them allowed", () => {
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter(" 7 ", now)).toBe(7_000);
    expect(parseRetryAfter("0", now)).toBe(0);
  });

  it("reads an HTTP date as the time left until it, never less than nothing", () => {
    expect(parseRetryAfter("Tue, 24 Nov 2026 12:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Tue, 24 Nov 2026 11:59:00 GMT", now)).toBe(0);
  });

  it("is null when absent or unreadable, including digits with words around them", () => {
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter("", now)).toBeNull();
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter("in 30", now)).toBeNull();
    expect(parseRetryAfter("30 seconds", now)).toBeNull();
  });
});

describe("backoffDelay", () => {
  const fixed = (r: number) => () => r;

  it("doubles the step with each retry and waits between half of it and all of it", () => {
    expect([1, 2, 3, 4].map((n) => backoffDelay(200, n, fixed(0)))).toEqual([100, 200, 400, 800]);
    expect([1, 2, 3, 4].map((n) => backoffDelay(200, n, fixed(1)))).toEqual([200, 400, 800, 1600]);
    expect(backoffDelay(200, 3, fixed(0.5))).toBe(600);
  });

  it("treats retry 0 like the first", () => {
    expect(backoffDelay(200, 0, fixed(0))).toBe(100);
  });
});

describe("networkErrorCode", () => {
  it("finds the system error code where undici puts it, or in an AggregateError's errors", () => {
    expect(networkErrorCode({ code: "ECONNREFUSED" })).toBe("ECONNREFUSED");
    expect(networkErrorCode(new TypeError("fetch failed", { cause: { code: "ENOTFOUND" } }))).toBe("ENOTFOUND");
    const aggregate = new AggregateError([new Error("v6"), Object.assign(new Error("v4"), { code: "EHOSTUNREACH" })]);
    expect(networkErrorCode(new TypeError("fetch failed", { cause: aggregate }))).toBe("EHOSTUNREACH");
    expect(networkErrorCode({ code: 42, cause: { code: "EAI_AGAIN" } })).toBe("EAI_AGAIN");
  });

  it("looks five causes deep and no further, and finds nothing in what is not an object", () => {
    const chain = (depth: number): unknown => (depth === 0 ? { code: "ENETUNREACH" } : { cause: chain(depth - 1) });
    expect(networkErrorCode(chain(5))).toBe("ENETUNREACH");
    expect(networkErrorCode(chain(6))).toBeUndefined();
    const wide = (depth: number): unknown => (depth === 0 ? { code: "ENETUNREACH" } : { errors: [wide(depth - 1)] });
    expect(networkErrorCode(wide(5))).toBe("ENETUNREACH");
    expect(networkErrorCode(wide(6))).toBeUndefined();
    expect(networkErrorCode("ECONNREFUSED")).toBeUndefined();
    expect(networkErrorCode(null)).toBeUndefined();
    expect(networkErrorCode(new Error("no code"))).toBeUndefined();
  });
});

describe("requestNeverSent", () => {
  it("is true only for failures before a byte left: the call may be tried again, even a purchase", async () => {
    // The codes are a module-level set: loaded afresh here, so mutation testing sees this test reach them.
    vi.resetModules();
    const { requestNeverSent } = await import("./retry");
    for (const code of [
      "ECONNREFUSED",
      "ENOTFOUND",
      "EAI_AGAIN",
      "EHOSTUNREACH",
      "ENETUNREACH",
      "UND_ERR_CONNECT_TIMEOUT",
    ])
      expect(requestNeverSent(code)).toBe(true);
    for (const code of ["ECONNRESET", "ETIMEDOUT", "UND_ERR_SOCKET", undefined])
      expect(requestNeverSent(code)).toBe(false);
  });
});
