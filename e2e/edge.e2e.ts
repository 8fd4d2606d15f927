import { describe, expect, inject, it } from "vitest";

const baseUrl = inject("baseUrl");
const key = { Authorization: `Token ${inject("apiKey")}` };

const SECURITY = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
};

describe("the edge of the running server", () => {
  it("sends the security headers on every kind of answer", async () => {
    for (const [path, init, status] of [
      ["/", {}, 200],
      ["/api/health", {}, 200],
      ["/api/inngest", {}, 503],
      ["/v1/openapi.json", {}, 200],
      ["/v1/connections", { headers: key }, 200],
      ["/v1/connections", {}, 401],
      ["/v1/nothing", { headers: key }, 404],
      ["/nothing", {}, 404],
    ] as const) {
      const res = await fetch(baseUrl + path, init);
      expect(res.status, path).toBe(status);
      for (const [name, value] of Object.entries(SECURITY))
        expect(res.headers.get(name), `${path} ${name}`).toBe(value);
      expect(res.headers.get("strict-transport-security"), path).toBeNull();
    }
  });

  it("marks the API's answers no-store, and the document cacheable", async () => {
    const res = await fetch(baseUrl + "/v1/connections", { headers: key });
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect((await fetch(baseUrl + "/v1/openapi.json")).headers.get("cache-control")).toBe("public, max-age=300");
  });

  it("answers /api/inngest with 503 not_configured while Inngest is not set up", async () => {
    const res = await fetch(baseUrl + "/api/inngest", { method: "PUT" });
    expect(res.status).toBe(503);
    expect((await res.json()).errors[0].code).toBe("not_configured");
  });
});
