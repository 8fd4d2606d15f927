import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createServer as createTlsServer, type Server as TlsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeTimeouts } from "@/test/clock";
import { senderReadsAnswer, startReceiver, type Receiver } from "@/test/webhook-receiver";
import {
  isPublicAddress,
  pinnedLookup,
  pooledAgent,
  safePost,
  systemResolver,
  urlProblem,
  type PostOptions,
  type PostResult,
} from "./safe-fetch";

const receivers: Receiver[] = [];
const servers: (Server | TlsServer)[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(receivers.splice(0).map((r) => r.close()));
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});
/** A bare server for what the receiver cannot do (TLS, IPv6, an answer in parts), listening; closed after the test. */
async function listening(server: Server | TlsServer, host = "127.0.0.1"): Promise<number> {
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, host, r));
  return (server.address() as AddressInfo).port;
}
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

const ioTurns = async (n: number, until: () => boolean = () => false) => {
  for (let i = 0; i < n && !until(); i++) await new Promise((r) => setImmediate(r));
};

/**
 * Moves the clock `ms` on from now and answers how the attempt ended: not a moment before that, and at that moment
 * (a given-up attempt ends within a few turns of I/O, as its socket closes; the clock is not moved while waiting).
 */
async function settlesIn(ms: number, attempt: Promise<PostResult>): Promise<PostResult> {
  let result: PostResult | null = null;
  void attempt.then((r) => (result = r));
  await vi.advanceTimersByTimeAsync(ms - 1);
  await ioTurns(20);
  expect(result, `settled before ${ms} ms`).toBeNull();
  await vi.advanceTimersByTimeAsync(1);
  await ioTurns(1000, () => result !== null);
  expect(result, `not settled at ${ms} ms`).not.toBeNull();
  return result!;
}

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
    for (const allowed of ["8.8.8.8", "93.184.216.34", "2606:4700::1111", "2606:4700::5efe:1111"]) {
      expect(isPublicAddress(allowed), allowed).toBe(true);
    }
  });

  it("refuses every IPv6 form that carries an IPv4 address, whatever the IPv4 address", () => {
    for (const refused of [
      // IPv4-compatible (::/96, deprecated): the metadata service and loopback, in hex and dotted form
      "::a9fe:a9fe",
      "::7f00:1",
      "::169.254.169.254",
      "::808:808",
      // IPv4-mapped and IPv4-translated, even of a public address: a public host has no reason to answer with one
      "::ffff:8.8.8.8",
      "::ffff:808:808",
      "::ffff:0:808:808",
      // NAT64, well-known and local-use prefixes (RFC 6052, RFC 8215)
      "64:ff9b::808:808",
      "64:ff9b::a9fe:a9fe",
      "64:ff9b:1::808:808",
      // 6to4, Teredo
      "2002:808:808::1",
      "2001:0:4136:e378:8000:63bf:3fff:fdd2",
      // ISATAP interface identifiers under a public prefix
      "2606:4700::5efe:a9fe:a9fe",
      "2606:4700::200:5efe:7f00:1",
    ]) {
      expect(isPublicAddress(refused), refused).toBe(false);
    }
  });

  it("refuses an endpoint URL whose host is an IPv4-compatible literal", async () => {
    const result = await safePost({
      url: "https://[::a9fe:a9fe]/latest/meta-data",
      body: "{}",
      headers: {},
      allowHttp: false,
      allowPrivate: false,
    });
    expect(result.errorClass).toBe("refused_address");
  });

  it("takes https URLs, and http only when allowed; never credentials in the URL", () => {
    expect(urlProblem("https://hooks.example.com/x", false)).toBeNull();
    expect(urlProblem("http://hooks.example.com/x", false)).toBe("insecure_url");
    expect(urlProblem("http://hooks.example.com/x", true)).toBeNull();
    expect(urlProblem("ftp://hooks.example.com/x", true)).toBe("invalid_url");
    expect(urlProblem("https://user:pw@hooks.example.com/x", true)).toBe("invalid_url");
    // A user name alone, or a password alone, is a credential too.
    expect(urlProblem("https://user@hooks.example.com/x", true)).toBe("invalid_url");
    expect(urlProblem("https://:pw@hooks.example.com/x", true)).toBe("invalid_url");
    expect(urlProblem("not a url", true)).toBe("invalid_url");
  });
});

describe("the connection's addresses", () => {
  const v4 = { address: "93.184.216.34", family: 4 as const };
  const v6 = { address: "2606:2800:220:1::1", family: 6 as const };
  /** What the pinned lookup answers for these lookup options: the error's code, or what the callback got. */
  const ask = (options: { family?: number; all?: boolean }, addresses = [v4, v6]) =>
    new Promise<unknown>((resolve) =>
      pinnedLookup(addresses)("anything.test", options as never, (err, address, family) =>
        resolve(err ? (err as NodeJS.ErrnoException).code : family === undefined ? address : [address, family]),
      ),
    );

  it("answers only the checked addresses, of the family asked for, whatever the name", async () => {
    expect(await ask({})).toEqual([v4.address, 4]);
    expect(await ask({ family: 0 })).toEqual([v4.address, 4]);
    expect(await ask({ family: 4 })).toEqual([v4.address, 4]);
    expect(await ask({ family: 6 })).toEqual([v6.address, 6]);
    expect(await ask({ all: true })).toEqual([v4, v6]);
    expect(await ask({ family: 6, all: true })).toEqual([v6]);
    expect(await ask({ family: 6 }, [v4])).toBe("ENOTFOUND");
    expect(await ask({ family: 4 }, [v6])).toBe("ENOTFOUND");
  });

  it("reads a family 6 answer of the system's resolver as IPv6", async () => {
    expect(await systemResolver("::1")).toEqual([{ address: "::1", family: 6 }]);
    expect(await systemResolver("127.0.0.1")).toEqual([{ address: "127.0.0.1", family: 4 }]);
  });

  it("keeps one pool per scheme, host, port and set of checked addresses, and drops one unused for a minute", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const a = pooledAgent(true, "hooks.test", 443, [v4, v6]);
    expect(pooledAgent(true, "hooks.test", 443, [v6, v4])).toBe(a);
    expect(pooledAgent(false, "hooks.test", 443, [v4, v6])).not.toBe(a);
    expect(pooledAgent(true, "hooks.test", 8443, [v4, v6])).not.toBe(a);
    expect(pooledAgent(true, "other.test", 443, [v4, v6])).not.toBe(a);
    expect(pooledAgent(true, "hooks.test", 443, [v4])).not.toBe(a);

    // Unused for exactly a minute it stays; a moment longer and the next call drops it with its connections.
    vi.advanceTimersByTime(60_000);
    pooledAgent(false, "elsewhere.test", 80, [v4]);
    expect(pooledAgent(true, "hooks.test", 443, [v4, v6])).toBe(a);
    vi.advanceTimersByTime(60_001);
    const destroy = vi.spyOn(a, "destroy");
    pooledAgent(false, "elsewhere.test", 80, [v4]);
    expect(destroy).toHaveBeenCalled();
    expect(pooledAgent(true, "hooks.test", 443, [v4, v6])).not.toBe(a);
  });
});

describe("safePost", () => {
  it("posts the body with its headers and reads the answer", async () => {
    const r = await receiver(() => ({ status: 204 }));
    const result = await post(`${r.url}?shop=42`);
    expect(result).toMatchObject({ statusCode: 204, errorClass: null, excerpt: "" });
    expect(r.received[0]).toMatchObject({ method: "POST", path: "/hooks?shop=42" });
    expect(r.received[0]!.body).toBe('{"hello":"world"}');
    expect(r.received[0]!.headers).toMatchObject({
      "webhook-id": "evt_1",
      "content-type": "application/json",
      "user-agent": "Shipwell-Webhooks/1",
    });
  });

  it("keeps the connection for the next attempt to the same checked addresses, and only for those", async () => {
    const server = createServer((req, res) => {
      req.resume();
      req.on("end", () => res.end(`${req.socket.localAddress} ${req.socket.remotePort}`));
    });
    const port = await listening(server, "0.0.0.0");
    const to = (address: string) => async () => [{ address, family: 4 as const }];
    const named = `http://hooks.customer.test:${port}/hooks`;
    const first = await post(named, { resolve: to("127.0.0.1") });
    const second = await post(named, { resolve: to("127.0.0.1") });
    expect(first).toMatchObject({ statusCode: 200, errorClass: null });
    expect(second.excerpt).toBe(first.excerpt);
    // The name now resolves elsewhere (checked again): the kept connection to the old address is not used.
    const moved = await post(named, { resolve: to("127.0.0.2") });
    expect(moved).toMatchObject({ statusCode: 200, errorClass: null });
    expect(moved.excerpt).toMatch(/^127\.0\.0\.2 /);
    expect(moved.excerpt).not.toBe(first.excerpt);
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

  it("takes 2xx as delivered, 3xx as a redirect and 4xx as a refusal, at each range's edges", async () => {
    for (const [status, errorClass] of [
      [200, null],
      [299, null],
      [300, "redirect"],
      [399, "redirect"],
      [400, "http_status"],
    ] as const) {
      const r = await receiver(() => ({ status }));
      expect(await post(r.url)).toMatchObject({ statusCode: status, errorClass });
    }
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

  it("resolves a name with the system's resolver when none is injected: localhost is loopback", async () => {
    const r = await receiver();
    const viaName = `http://localhost:${r.port}/hooks`;
    expect(await post(viaName, { allowPrivate: false })).toMatchObject({ errorClass: "refused_address" });
    expect(r.received).toHaveLength(0);
    expect(await post(viaName)).toMatchObject({ statusCode: 200, errorClass: null });
    expect(r.received).toHaveLength(1);
  });

  it("classifies a name that resolves to no address at all as dns", async () => {
    const r = await receiver();
    const none = async () => [];
    expect(await post(`http://hooks.customer.test:${r.port}/hooks`, { resolve: none })).toMatchObject({
      statusCode: null,
      errorClass: "dns",
    });
    expect(r.received).toHaveLength(0);
  });

  it("classifies a certificate the sender does not trust as tls", async () => {
    // A self-signed certificate for hooks.customer.test (fixtures/), made once with openssl.
    const server = createTlsServer(
      {
        key: readFileSync(new URL("./fixtures/self-signed.key", import.meta.url)),
        cert: readFileSync(new URL("./fixtures/self-signed.crt", import.meta.url)),
      },
      (req, res) => res.end("reached"),
    );
    server.on("tlsClientError", () => undefined);
    const port = await listening(server);
    const toLoopback = async () => [{ address: "127.0.0.1", family: 4 as const }];
    expect(await post(`https://hooks.customer.test:${port}/hooks`, { resolve: toLoopback })).toMatchObject({
      statusCode: null,
      errorClass: "tls",
    });
  });

  it("gives up on a receiver that does not answer within 10 s, and drops its connection", async () => {
    fakeTimeouts();
    const r = await receiver(() => "hang");
    const attempt = post(r.url);
    await r.arrived();
    expect(await settlesIn(10_000, attempt)).toMatchObject({ statusCode: null, excerpt: null, errorClass: "timeout" });
    await vi.waitFor(() => expect(r.abandoned()).toBe(1));
  });

  it("counts name resolution into the deadline: a name that never resolves, or resolves late, times out", async () => {
    fakeTimeouts();
    const never = () => new Promise<never>(() => {});
    const unresolved = post("https://slow.customer.test/x", { timeoutMs: 3_000, resolve: never });
    expect(await settlesIn(3_000, unresolved)).toMatchObject({ statusCode: null, errorClass: "timeout" });

    const r = await receiver(() => "hang");
    const late = () =>
      new Promise<{ address: string; family: 4 }[]>((resolve) =>
        setTimeout(() => resolve([{ address: "127.0.0.1", family: 4 }]), 2_000),
      );
    const attempt = post(`http://hooks.customer.test:${r.port}/hooks`, { timeoutMs: 3_000, resolve: late });
    await vi.advanceTimersByTimeAsync(2_000);
    await r.arrived();
    // The receiver has had 1 s of the 3: the deadline runs from the start of the attempt, not of the connection.
    expect(await settlesIn(1_000, attempt)).toMatchObject({ statusCode: null, errorClass: "timeout" });
  });

  it("leaves no timer behind once an attempt is over, however it ended", async () => {
    fakeTimeouts();
    const ok = await receiver(() => ({ status: 204 }));
    const failing = await receiver(() => ({ status: 500, body: "boom" }));
    const closed = await receiver();
    await closed.close();
    const toLoopback = async () => [{ address: "127.0.0.1", family: 4 as const }];
    const noSuchName = async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
    };
    const hanging = await receiver(() => "hang");
    const attempts: [() => Promise<PostResult>, string | null][] = [
      [() => post(ok.url), null],
      [() => post(failing.url), "http_status"],
      [() => post(closed.url), "connection"],
      [() => post("https://nowhere.customer.test/x", { resolve: noSuchName }), "dns"],
      [
        () => post(`http://hooks.customer.test:${ok.port}/`, { allowPrivate: false, resolve: toLoopback }),
        "refused_address",
      ],
      [
        async () => {
          const attempt = post(hanging.url);
          await hanging.arrived();
          // While an attempt is under way its deadline is the one timer.
          expect(vi.getTimerCount()).toBe(1);
          return settlesIn(10_000, attempt);
        },
        "timeout",
      ],
    ];
    for (const [attempt, errorClass] of attempts) {
      expect((await attempt()).errorClass).toBe(errorClass);
      expect(vi.getTimerCount(), String(errorClass)).toBe(0);
    }
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

  it("reads a small answer that comes in parts to its end", async () => {
    let rest = null as (() => void) | null;
    const port = await listening(
      createServer((req, res) => {
        req.resume();
        res.writeHead(200);
        res.write("first part, ");
        rest = () => res.end("second part");
      }),
    );
    const attempt = post(`http://127.0.0.1:${port}/`);
    await ioTurns(10_000, () => rest !== null);
    // The first part reaches the sender on its own; the answer is not over until the second.
    await ioTurns(20);
    rest!();
    expect(await attempt).toMatchObject({ statusCode: 200, errorClass: null, excerpt: "first part, second part" });
  });

  it("reaches an IPv6 literal in brackets, and refuses it as loopback unless private addresses are allowed", async () => {
    const server = createServer((req, res) => {
      req.resume();
      res.end("six");
    });
    const url = `http://[::1]:${await listening(server, "::1")}/hooks`;
    expect(await post(url, { allowPrivate: false })).toMatchObject({ errorClass: "refused_address" });
    expect(await post(url)).toMatchObject({ statusCode: 200, errorClass: null, excerpt: "six" });
  });

  it("measures the attempt on the stopwatch, from its start to the answer", async () => {
    vi.useFakeTimers({ toFake: ["performance"] });
    vi.advanceTimersByTime(5000);
    const r = await receiver(() => {
      vi.advanceTimersByTime(1234);
      return { status: 200 };
    });
    expect(await post(r.url)).toMatchObject({ statusCode: 200, durationMs: 1234 });
  });

  it("judges an answer the receiver cuts off mid-body by its status, with what came, without waiting", async () => {
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { "content-length": "100" });
      res.write("partial", () => res.socket?.destroy());
    });
    const port = await listening(server);
    // The deadline's clock never moves: the attempt ends because the connection did.
    fakeTimeouts();
    const result = await post(`http://127.0.0.1:${port}/`);
    expect(result).toMatchObject({ statusCode: 200, errorClass: null, excerpt: "partial" });
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
    const port = await listening(server);
    // The deadline's clock never moves: without the cap this answer would never be done with.
    fakeTimeouts();
    const result = await post(`http://127.0.0.1:${port}/`);
    expect(result).toMatchObject({ statusCode: 200, errorClass: null });
    expect(Buffer.byteLength(result.excerpt!)).toBe(2048);
  });

  it("judges an answer by its status when its body is still coming at the deadline", async () => {
    fakeTimeouts();
    const r = await receiver(() => ({ status: 202, body: "accepted, and then nothing more", open: true }));
    const read = senderReadsAnswer(r.port);
    const attempt = post(r.url);
    await read;
    expect(await settlesIn(10_000, attempt)).toMatchObject({
      statusCode: 202,
      errorClass: null,
      excerpt: "accepted, and then nothing more",
    });
    await vi.waitFor(() => expect(r.abandoned()).toBe(1));
  });
});
