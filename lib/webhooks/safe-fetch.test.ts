import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startReceiver, type Receiver } from "@/test/webhook-receiver";
import { isPublicAddress, safePost, urlProblem, type PostOptions } from "./safe-fetch";

const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});
async function receiver(...args: Parameters<typeof startReceiver>) {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
}

const post = (url: string, more: Partial<PostOptions> = {}) =>
  safePost({
    url,
    body: '{"hello":"world"}',
    headers: { "webhook-id": "evt_1" },
    allowHttp: true,
    allowPrivate: true,
    ...more,
  });

describe("which addresses a webhook may reach", () => {
  it("refuses private, loopback, link-local, unique-local, CGNAT, multicast, unspecified and metadata addresses", () => {
    for (const refused of [
      "127.0.0.1",
      "10.0.0.8",
      "172.16.4.4",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "224.0.0.1",
      "0.0.0.0",
      "255.255.255.255",
      "::1",
      "::",
      "fe80::1",
      "fd00:ec2::254",
      "ff02::1",
      "::ffff:127.0.0.1",
      "::ffff:169.254.169.254",
      "64:ff9b::7f00:1",
      "2002:7f00:1::",
      "not an address",
    ]) {
      expect(isPublicAddress(refused), refused).toBe(false);
    }
    for (const allowed of ["8.8.8.8", "93.184.216.34", "2606:4700::1111", "::ffff:8.8.8.8"]) {
      expect(isPublicAddress(allowed), allowed).toBe(true);
    }
  });

  it("takes https URLs, and http only when allowed; never credentials in the URL", () => {
    expect(urlProblem("https://hooks.example.com/x", false)).toBeNull();
    expect(urlProblem("http://hooks.example.com/x", false)).toBe("insecure_url");
    expect(urlProblem("http://hooks.example.com/x", true)).toBeNull();
    expect(urlProblem("ftp://hooks.example.com/x", true)).toBe("invalid_url");
    expect(urlProblem("https://user:pw@hooks.example.com/x", true)).toBe("invalid_url");
    expect(urlProblem("not a url", true)).toBe("invalid_url");
  });
});

describe("safePost", () => {
  it("posts the body with its headers and reads the answer", async () => {
    const r = await receiver(() => ({ status: 204 }));
    const result = await post(r.url);
    expect(result).toMatchObject({ statusCode: 204, errorClass: null, excerpt: "" });
    expect(r.received[0]!.body).toBe('{"hello":"world"}');
    expect(r.received[0]!.headers).toMatchObject({
      "webhook-id": "evt_1",
      "content-type": "application/json",
      "user-agent": "Shipwell-Webhooks/1",
    });
  });

  it("refuses a private address literal, and a host name that resolves to one, before connecting", async () => {
    const r = await receiver();
    expect(await post(r.url, { allowPrivate: false })).toMatchObject({
      statusCode: null,
      errorClass: "refused_address",
    });
    const toLoopback = async () => [{ address: "127.0.0.1", family: 4 as const }];
    const named = `http://hooks.customer.test:${r.port}/hooks`;
    expect(await post(named, { allowPrivate: false, resolve: toLoopback })).toMatchObject({
      errorClass: "refused_address",
    });
    // One public and one private address is refused too: the connection could go to either.
    const mixed = async () => [
      { address: "93.184.216.34", family: 4 as const },
      { address: "10.0.0.1", family: 4 as const },
    ];
    expect(await post(named, { allowPrivate: false, resolve: mixed })).toMatchObject({ errorClass: "refused_address" });
    expect(r.received).toHaveLength(0);
  });

  it("connects to the address it checked, with the URL's Host (no second resolution to rebind)", async () => {
    const r = await receiver();
    let lookups = 0;
    const resolve = async () => {
      lookups++;
      // A rebinding resolver would answer something else the second time: it is never asked again.
      return lookups === 1
        ? [{ address: "127.0.0.1", family: 4 as const }]
        : [{ address: "10.9.9.9", family: 4 as const }];
    };
    const result = await post(`http://hooks.customer.test:${r.port}/hooks?x=1`, { resolve });
    expect(result).toMatchObject({ statusCode: 200, errorClass: null });
    expect(lookups).toBe(1);
    expect(r.received[0]!.headers.host).toBe(`hooks.customer.test:${r.port}`);
  });

  it("refuses plain http where https is required", async () => {
    const r = await receiver();
    expect(await post(r.url, { allowHttp: false })).toMatchObject({ errorClass: "insecure_url" });
    expect(r.received).toHaveLength(0);
  });

  it("does not follow a redirect: the 3xx is a failed attempt", async () => {
    const target = await receiver();
    const r = await receiver(() => ({ status: 302, headers: { location: target.url } }));
    expect(await post(r.url)).toMatchObject({ statusCode: 302, errorClass: "redirect" });
    expect(target.received).toHaveLength(0);
  });

  it("classifies other answers and failures", async () => {
    const r = await receiver(() => ({ status: 500, body: "boom" }));
    expect(await post(r.url)).toMatchObject({ statusCode: 500, errorClass: "http_status", excerpt: "boom" });
    const closed = await receiver();
    await closed.close();
    expect(await post(closed.url)).toMatchObject({ statusCode: null, errorClass: "connection" });
    const failing = async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
    };
    expect(await post("https://nowhere.customer.test/x", { resolve: failing })).toMatchObject({ errorClass: "dns" });
  });

  it("gives up on a receiver that does not answer in time", async () => {
    const r = await receiver(() => "hang");
    expect(await post(r.url, { timeoutMs: 200 })).toMatchObject({ statusCode: null, errorClass: "timeout" });
    const slowDns = () => new Promise<never>(() => {});
    expect(await post("https://slow.customer.test/x", { timeoutMs: 200, resolve: slowDns })).toMatchObject({
      errorClass: "timeout",
    });
  });

  it("reads a large answer only up to its cap, and keeps its first 2 KB as the excerpt", async () => {
    const big = "é".repeat(5_000_000); // 10 MB of UTF-8
    const r = await receiver(() => ({ status: 200, body: big }));
    const result = await post(r.url);
    expect(result).toMatchObject({ statusCode: 200, errorClass: null });
    expect(Buffer.byteLength(result.excerpt!)).toBe(2048);
    const nul = await receiver(() => ({ status: 400, body: "a\u0000b" }));
    expect((await post(nul.url)).excerpt).toBe("a\ufffdb");
  });

  it("stops reading an endless answer at the cap and drops the connection", async () => {
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(200);
      const chunk = Buffer.alloc(16 * 1024, "x");
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
      };
      res.on("drain", pump);
      pump();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as AddressInfo;
    // The deadline is past the test's own timeout: without the cap this answer would never be done with.
    const result = await post(`http://127.0.0.1:${port}/`, { timeoutMs: 120_000 });
    server.closeAllConnections();
    server.close();
    expect(result).toMatchObject({ statusCode: 200, errorClass: null });
    expect(Buffer.byteLength(result.excerpt!)).toBe(2048);
  });

  it("judges an answer by its status when its body is still coming at the deadline", async () => {
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(202);
      res.write("accepted, and then nothing more");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as AddressInfo;
    const result = await post(`http://127.0.0.1:${port}/`, { timeoutMs: 300 });
    server.closeAllConnections();
    server.close();
    expect(result).toMatchObject({ statusCode: 202, errorClass: null, excerpt: "accepted, and then nothing more" });
  });
});
