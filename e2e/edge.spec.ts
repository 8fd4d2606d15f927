import net from "node:net";
import { expect, test } from "./fixtures";

/** A request written by hand: Playwright's request context cannot send TRACE or a made-up method. */
function raw(baseURL: string, method: string, path: string): Promise<{ status: number; head: string; body: string }> {
  const { hostname, port } = new URL(baseURL);
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

test.describe("the edge of the running server", () => {
  test("sends the security headers on every kind of answer", async ({ request, api }) => {
    for (const [path, withKey, status] of [
      ["/", false, 307],
      ["/api/health", false, 200],
      ["/api/inngest", false, 503],
      ["/v1/openapi.json", false, 200],
      ["/v1/connections", true, 200],
      ["/v1/connections", false, 401],
      ["/v1/nothing", true, 404],
      // Signed out, any page (an unknown one too) answers with the way to sign in, not its own content.
      ["/nothing", false, 307],
      ["/sign-in", false, 200],
    ] as const) {
      const res = await (withKey ? api : request).get(path, { maxRedirects: 0 });
      expect(res.status(), path).toBe(status);
      const headers = res.headers();
      for (const [name, value] of Object.entries(SECURITY)) expect(headers[name], `${path} ${name}`).toBe(value);
      expect(headers["strict-transport-security"], path).toBeUndefined();
    }
  });

  test("marks the API's answers no-store, and the document cacheable", async ({ request, api }) => {
    expect((await api.get("/v1/connections")).headers()["cache-control"]).toBe("no-store");
    expect((await request.get("/v1/openapi.json")).headers()["cache-control"]).toBe("public, max-age=300");
  });

  test("answers /api/inngest with 503 not_configured while Inngest is not set up", async ({ request }) => {
    const res = await request.put("/api/inngest");
    expect(res.status()).toBe(503);
    expect((await res.json()).errors[0].code).toBe("not_configured");
  });

  test("limits requests without a key by the address the server saw, whatever X-Forwarded-For claims", async ({
    request,
  }) => {
    const remaining = async (claimed: string) => {
      const res = await request.get("/v1/shipments", { headers: { "X-Forwarded-For": claimed } });
      expect(res.status()).toBe(401);
      expect(res.headers()["x-ratelimit-limit"]).toBe("60");
      return Number(res.headers()["x-ratelimit-remaining"]);
    };
    const first = await remaining("198.51.100.1");
    expect(await remaining("198.51.100.2")).toBeLessThan(first); // one bucket: the claim is not the address
  });

  test("refuses TRACE, PROPFIND and a made-up method with 405 in the envelope", async ({ request, baseURL }) => {
    for (const [method, path, allow] of [
      ["TRACE", "/v1/connections", "GET, POST"],
      ["PROPFIND", "/v1/shipments", "GET, POST"],
      ["FOO", "/v1/connections", null],
    ] as const) {
      const res = await raw(baseURL!, method, path);
      expect(res.status, method).toBe(405);
      expect(JSON.parse(res.body).errors[0].code, method).toBe("method_not_allowed");
      expect(res.head).toContain("x-content-type-options: nosniff");
      expect(res.head).toMatch(/x-request-id: req_[0-9a-f]{32}/);
      if (allow) expect(res.head, method).toContain(`allow: ${allow.toLowerCase()}`);
    }
    expect((await request.get("/api/health")).status()).toBe(200); // and the server carries on
  });
});
