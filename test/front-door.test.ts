import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFrontDoor } from "@/lib/front-door";

// A plain Node.js server stands in for Next.js's: whatever reaches its listener was let through the front door.
let server: http.Server;
let port: number;
let closeFrontDoor: () => void;
beforeAll(async () => {
  closeFrontDoor = openFrontDoor();
  server = http.createServer((req, res) => {
    const answer = () => res.end(`next.js got ${req.method} from ${req.headers["x-forwarded-for"]}`);
    // A request still being answered when the next one on its connection arrives.
    if (req.url === "/slow") setImmediate(answer);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  closeFrontDoor();
  await new Promise((resolve) => server.close(resolve));
});

/** One request written by hand (fetch cannot send TRACE, CONNECT or made-up methods), and its answer parsed. */
function send(method: string, target: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, string>; body: string }>((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => {
      const lines = [`${method} ${target} HTTP/1.1`, "Host: localhost", "Connection: close"];
      for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
      socket.write(`${lines.join("\r\n")}\r\n\r\n`);
    });
    let raw = "";
    socket.on("data", (chunk) => (raw += chunk.toString()));
    socket.on("error", reject);
    socket.on("close", () => {
      const [head = "", ...rest] = raw.split("\r\n\r\n");
      const [statusLine = "", ...headerLines] = head.split("\r\n");
      const parsed = Object.fromEntries(
        headerLines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(" ")[1]), headers: parsed, body: rest.join("\r\n\r\n") });
    });
  });
}

const envelope = (message: unknown) => ({ errors: [{ code: "method_not_allowed", message, field: null }] });

describe("the front door", () => {
  it("answers TRACE and other methods Next.js cannot route with 405 in the envelope, Allow naming ours", async () => {
    for (const [method, path, allow] of [
      ["TRACE", "/v1/connections", "GET, POST"],
      ["PROPFIND", "/v1/shipments/shp_1/purchase?x=1", "POST"],
      ["TRACE", "/v1/trackers/trk_1/refresh", "POST"],
      ["TRACE", "/v1/trackers/sandbox/SBX123", "GET, POST"],
      ["PURGE", "/api/inngest", "GET, POST, PUT"],
      ["TRACE", "/", "GET"],
      ["TRACE", "http://example.com/v1/connections/car_1?x", "GET, PATCH, DELETE"],
    ] as const) {
      const res = await send(method, path, { "X-Request-ID": "front-door-1" });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.allow, `${method} ${path}`).toBe(allow);
      expect(res.headers["x-request-id"]).toBe("front-door-1");
      expect(res.headers["content-type"]).toBe("application/json");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(JSON.parse(res.body)).toEqual(envelope(`${method} is not allowed here; use ${allow}.`));
    }
  });

  it("answers 405 without Allow on a path the app does not serve, and to methods Node.js does not know", async () => {
    for (const method of ["TRACE", "MKCOL"]) {
      const res = await send(method, "/v1/nothing");
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBeUndefined();
      expect(JSON.parse(res.body)).toEqual(envelope(`${method} is not served here.`));
    }
    for (const [method, target] of [
      ["FOO", "/v1/connections"],
      ["TRACK", "/v1/connections"],
      ["CONNECT", "example.com:443"],
    ]) {
      const res = await send(method!, target!);
      expect(res.status, method).toBe(405);
      expect(res.headers["x-request-id"]).toMatch(/^req_[0-9a-f]{32}$/);
      expect(res.headers["x-frame-options"]).toBe("DENY");
      expect(JSON.parse(res.body).errors[0].code).toBe("method_not_allowed");
    }
  });

  it("survives a client that resets its connection right after a CONNECT", async () => {
    for (let i = 0; i < 5; i++) {
      await new Promise<void>((resolve) => {
        const socket = net.connect(port, "127.0.0.1", () => {
          socket.write("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n");
          setImmediate(() => socket.resetAndDestroy());
        });
        socket.on("close", () => resolve());
        socket.on("error", () => undefined);
      });
    }
    // Once the server has closed every reset connection, it still answers.
    await new Promise<void>((resolve) => {
      const check = () => server.getConnections((_err, open) => (open === 0 ? resolve() : setImmediate(check)));
      check();
    });
    expect((await send("GET", "/v1/connections")).status).toBe(200);
  });

  it("refuses targets Next.js cannot read with 400 in the envelope: *, a whole URL, escapes that are not UTF-8", async () => {
    for (const target of [
      "*",
      "http://evil.example/v1/shipments",
      "//evil.example/v1",
      "/v1/shipments/%FF",
      "/v1/x/%ED%A0%80",
    ]) {
      const res = await send("GET", target);
      expect(res.status, target).toBe(400);
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(JSON.parse(res.body).errors[0]).toMatchObject({ code: "validation_error", field: null });
    }
    expect((await send("GET", "/v1/shipments/%E2%82%AC")).status).toBe(200);
  });

  it("answers OPTIONS from the table of served methods, and 404 for a path the app does not serve", async () => {
    const res = await send("OPTIONS", "/v1/connections");
    expect(res.status).toBe(204);
    expect(res.headers.allow).toBe("GET, POST, HEAD, OPTIONS");
    expect(res.headers["x-request-id"]).toMatch(/^req_[0-9a-f]{32}$/);
    const unknown = await send("OPTIONS", "/v1/nothing/here");
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body).errors[0].code).toBe("not_found");
  });

  it("answers a pipelined request before refusing the unknown method that follows it on the same connection", async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      let out = "";
      const socket = net.connect(port, "127.0.0.1", () =>
        socket.write("GET /slow HTTP/1.1\r\nHost: x\r\n\r\nFOO / HTTP/1.1\r\nHost: x\r\n\r\n"),
      );
      socket.on("data", (chunk) => (out += chunk.toString()));
      socket.on("error", reject);
      socket.on("close", () => resolve(out));
    });
    const statuses = [...raw.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => m[1]);
    expect(statuses).toEqual(["200", "405"]);
    expect(raw).toContain("next.js got GET");
  });

  it("lets the methods Next.js routes through", async () => {
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
      const res = await send(method, "/v1/connections", { "Content-Length": "0" });
      expect(res.status, method).toBe(200);
      expect(res.body).toBe(`next.js got ${method} from 127.0.0.1`);
    }
  });

  it("appends the peer's address to X-Forwarded-For, after whatever the client wrote there", async () => {
    const res = await send("GET", "/v1/connections", { "X-Forwarded-For": "6.6.6.6, 7.7.7.7" });
    expect(res.body).toBe("next.js got GET from 6.6.6.6, 7.7.7.7, 127.0.0.1");
  });
});
