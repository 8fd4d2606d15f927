import { describe, expect, it, vi } from "vitest";

// Nothing listens on port 1: the database is "down" for this file.
process.env.DATABASE_URL = "postgres://postgres@127.0.0.1:1/none";

describe("database unavailable", () => {
  it("answers 503 unavailable with Retry-After and no internals", async () => {
    const { GET } = await import("@/app/v1/connections/route");
    const { call } = await import("./helpers");
    const res = await call(GET, "GET", "/v1/connections", { key: "shw_whatever-key-0000000000000000000" });
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(res.body.errors[0].code).toBe("unavailable");
    expect(JSON.stringify(res.body)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|postgres/);
  });

  it("answers sign-in (better-auth) 503 with Retry-After too, not better-auth's 500", async () => {
    const { authEndpoint } = await import("@/lib/api/auth-endpoint");
    const signIn = () =>
      authEndpoint(
        new Request("http://localhost/api/auth/sign-in/email", {
          method: "POST",
          headers: { "content-type": "application/json", origin: "http://localhost" },
          body: JSON.stringify({ email: "clerk@example.com", password: "correct horse battery" }),
        }),
      );
    for (const res of [await signIn(), await signIn()]) {
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      expect(await res.json()).toMatchObject({ code: "UNAVAILABLE" });
    }
  });

  it("logs the failure that found the database gone, not every refusal after it", async () => {
    const { GET } = await import("@/app/v1/connections/route");
    const { call } = await import("./helpers");
    const { log } = await import("@/lib/log");
    const error = vi.spyOn(log(), "error");
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      statuses.push(
        (await call(GET, "GET", "/v1/connections", { key: "shw_whatever-key-0000000000000000000" })).status,
      );
    }
    expect(statuses).toEqual([503, 503, 503, 503, 503]);
    const lines = error.mock.calls.filter(([line]) => (line as { msg?: string }).msg === "database unavailable");
    expect(lines.length).toBeLessThanOrEqual(1);
    error.mockRestore();
  });
});
