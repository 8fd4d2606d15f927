import net from "node:net";
import { describe, expect, inject, it } from "vitest";

const baseUrl = inject("baseUrl");
const key = { Authorization: `Token ${inject("apiKey")}` };

/** A request written by hand: fetch cannot send TRACE or a made-up method. */
function raw(method: string, path: string): Promise<{ status: number; head: string; body: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () =>
      socket.write(`${method} ${path} HTTP/1.1\r\nHost: ${hostname}\r\nConnection: close\r\n\r\n`),
    );
    let text = "";
    socket.on("data", (chunk) => (text += chunk.toString()));
    socket.on("error", reject);
    socket.on("close", () => {
      const [head = "", ...body] = text.split("\r\n\r\n");
      resolve({ status: Number(head.split(" ")[1]), head: head.toLowerCase(), body: body.join("\r\n\r\n") });
    });
  });
}

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

  it("limits requests without a key by the address the server saw, whatever X-Forwarded-For claims", async () => {
    const remaining = async (claimed: string) => {
      const res = await fetch(baseUrl + "/v1/shipments", { headers: { "X-Forwarded-For": claimed } });
      expect(res.status).toBe(401);
      expect(res.headers.get("x-ratelimit-limit")).toBe("60");
      return Number(res.headers.get("x-ratelimit-remaining"));
    };
    const first = await remaining("198.51.100.1");
    expect(await remaining("198.51.100.2")).toBeLessThan(first); // one bucket: the claim is not the address
  });

  it("refuses TRACE, PROPFIND and a made-up method with 405 in the envelope", async () => {
    for (const [method, path, allow] of [
      ["TRACE", "/v1/connections", "GET, POST"],
      ["PROPFIND", "/v1/shipments", "GET, POST"],
      ["FOO", "/v1/connections", null],
    ] as const) {
      const res = await raw(method, path);
      expect(res.status, method).toBe(405);
      expect(JSON.parse(res.body).errors[0].code, method).toBe("method_not_allowed");
      expect(res.head).toContain("x-content-type-options: nosniff");
      expect(res.head).toMatch(/x-request-id: req_[0-9a-f]{32}/);
      if (allow) expect(res.head, method).toContain(`allow: ${allow.toLowerCase()}`);
    }
    expect((await fetch(baseUrl + "/api/health")).status).toBe(200); // and the server carries on
  });
});
