import "server-only";
import { lookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * The one way a webhook leaves the service (docs/webhooks.md, "Safety"): a POST to a URL a customer typed, so it
 * must not become a way into the operator's network. The URL must be https (plain http only for test-mode
 * endpoints or when the operator allows it); its host is resolved now, at delivery, and every address it resolves
 * to must be a public unicast address (unless the operator allows private ones); the connection then goes to the
 * address that was checked, never to a second resolution of the name (DNS rebinding), with the URL's Host header
 * and TLS server name. Redirects are not followed, the exchange has a deadline, and the answer is read up to a cap.
 * Connections are kept alive between attempts, pooled by the addresses checked (pooledAgent): a kept connection is
 * used again only by an attempt whose own resolution, checked now, gave the same addresses.
 */

/** What went wrong with an attempt, as the delivery log shows it; null on success. */
export type DeliveryErrorClass =
  | "invalid_url"
  | "insecure_url"
  | "dns"
  | "refused_address"
  | "connection"
  | "tls"
  | "timeout"
  | "redirect"
  | "http_status";

interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address a host name resolves to. Injectable so tests can make a name resolve to anything. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

export interface PostResult {
  /** Null when no HTTP answer came. */
  statusCode: number | null;
  /** The first EXCERPT_BYTES of the answer's body, as text. */
  excerpt: string | null;
  errorClass: DeliveryErrorClass | null;
  durationMs: number;
}

export interface PostOptions {
  url: string;
  body: string;
  headers: Record<string, string>;
  /** Plain http is allowed (a test-mode endpoint, or WEBHOOKS_ALLOW_HTTP). */
  allowHttp: boolean;
  /** Private, loopback, link-local… addresses are allowed (WEBHOOKS_ALLOW_PRIVATE_URLS). */
  allowPrivate: boolean;
  resolve?: Resolver;
  timeoutMs?: number;
}

export const DELIVERY_TIMEOUT_MS = 10_000;
// The answer is read up to this much, then the connection is dropped: a receiver cannot make us hold its body.
const MAX_ANSWER_BYTES = 64 * 1024;
const EXCERPT_BYTES = 2048;

/** An IPv4 or IPv6 address written out, not a name. */
export const isIpLiteral = (host: string): boolean => ipaddr.isValid(host);

/**
 * IPv6 prefixes whose addresses carry an IPv4 address inside, all refused whatever that address is: the IPv4 address
 * may be private, and a host answering with one of these forms has no honest reason to. IPv4-compatible (::/96,
 * deprecated, which ipaddr.js calls plain unicast: `::a9fe:a9fe` is 169.254.169.254), IPv4-mapped and -translated,
 * NAT64 (well-known and local-use prefixes, RFC 6052 and RFC 8215), 6to4 and Teredo.
 */
const IPV4_CARRYING = [
  "::/96",
  "::ffff:0:0/96",
  "::ffff:0:0:0/96",
  "64:ff9b::/96",
  "64:ff9b:1::/48",
  "2002::/16",
  "2001::/32",
].map((cidr) => ipaddr.IPv6.parseCIDR(cidr));

/** An ISATAP interface identifier (`…:0:5efe:a.b.c.d`, or `200:5efe` when universal, RFC 5214) under any prefix. */
const isIsatap = (parts: number[]) => (parts[4]! & 0xfdff) === 0 && parts[5] === 0x5efe;

/**
 * True for a public unicast address: everything ipaddr.js classifies otherwise is refused (private, loopback,
 * link-local, which holds cloud metadata at 169.254.169.254, unique-local, which holds AWS's fd00:ec2::254, CGNAT,
 * multicast, broadcast, unspecified, reserved and documentation ranges), and so is every IPv6 form that carries an
 * IPv4 address inside (IPV4_CARRYING, ISATAP).
 */
export function isPublicAddress(address: string): boolean {
  if (!isIpLiteral(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6") {
    const v6 = parsed as ipaddr.IPv6;
    if (IPV4_CARRYING.some((range) => v6.match(range)) || isIsatap(v6.parts)) return false;
  }
  return parsed.range() === "unicast";
}

/** A URL the sender may try at all (before any resolution), or why not. */
export function urlProblem(raw: string, allowHttp: boolean): DeliveryErrorClass | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "invalid_url";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "invalid_url";
  // Credentials in a URL would be sent to whoever the host is and written wherever URLs are shown.
  if (url.username || url.password || !url.hostname) return "invalid_url";
  if (url.protocol === "http:" && !allowHttp) return "insecure_url";
  return null;
}

// An idle kept-alive connection is closed after this long: sooner than the 5 s after which Node.js servers (and most
// others) close theirs, so an attempt seldom starts on a connection the receiver is closing.
const IDLE_CONNECTION_MS = 4_000;
// A pool unused for this long is dropped with its connections.
const POOL_UNUSED_MS = 60_000;
const pools = new Map<string, { agent: http.Agent; usedAt: number }>();

/**
 * The agent whose kept-alive connections go to exactly these checked addresses of this host and port: keyed by the
 * address set, so a connection made under one check is never used after a resolution that answered otherwise (DNS
 * rebinding), and a receiver's deliveries, sent one after the other, reuse one connection instead of opening one
 * each (issue 35: that was most of an attempt's cost).
 */
export function pooledAgent(secure: boolean, host: string, port: number, addresses: ResolvedAddress[]): http.Agent {
  const now = Date.now();
  for (const [key, pool] of pools) {
    if (now - pool.usedAt > POOL_UNUSED_MS) {
      pool.agent.destroy();
      pools.delete(key);
    }
  }
  const key = JSON.stringify([secure, host, port, addresses.map((a) => a.address).sort()]);
  let pool = pools.get(key);
  if (!pool) {
    const options = { keepAlive: true, timeout: IDLE_CONNECTION_MS, scheduling: "lifo" as const };
    pool = { agent: secure ? new https.Agent(options) : new http.Agent(options), usedAt: now };
    pools.set(key, pool);
  }
  pool.usedAt = now;
  return pool.agent;
}

/** `[::1]` as URL.hostname writes it, `::1` as sockets and ipaddr.js read it. */
const bareHost = (hostname: string) => hostname.replace(/^\[(.*)\]$/, "$1");

/** A `lookup` for http.request that answers the addresses already checked, whatever name it is asked for. */
export function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
    const usable = wanted ? addresses.filter((a) => a.family === wanted) : addresses;
    if (usable.length === 0) {
      callback(Object.assign(new Error("no checked address of that family"), { code: "ENOTFOUND" }), "", 4);
    } else if (options.all) {
      (callback as unknown as (err: null, list: ResolvedAddress[]) => void)(null, usable);
    } else {
      callback(null, usable[0]!.address, usable[0]!.family);
    }
  };
}

const TLS_CODES = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|ERR_OSSL_)/;

function classify(err: unknown): DeliveryErrorClass {
  const code = (err as { code?: unknown })?.code;
  return typeof code === "string" && TLS_CODES.test(code) ? "tls" : "connection";
}

/** Text that Postgres can store: the excerpt is whatever bytes the receiver sent. */
function excerptOf(chunks: Buffer[]): string {
  return Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString("utf8").replaceAll("\u0000", "\ufffd");
}

/** POSTs `body` to `url` under the rules above. Never throws: every failure is a result with its error class. */
export async function safePost(opts: PostOptions): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failed = (errorClass: DeliveryErrorClass, statusCode: number | null = null): PostResult => ({
    statusCode,
    excerpt: null,
    errorClass,
    durationMs: elapsed(),
  });

  const problem = urlProblem(opts.url, opts.allowHttp);
  if (problem) return failed(problem);
  const url = new URL(opts.url);
  const host = bareHost(url.hostname);
  const timeoutMs = opts.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  // A timer of our own, not AbortSignal.timeout: fake timers can move it (tests), and it is cleared once settled.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException("delivery deadline", "TimeoutError")), timeoutMs);
  const deadline = controller.signal;
  try {
    return await attempt(opts, url, host, deadline, failed, elapsed);
  } finally {
    clearTimeout(timer);
  }
}

/** The attempt under `deadline`, from resolution to the answer. */
async function attempt(
  opts: PostOptions,
  url: URL,
  host: string,
  deadline: AbortSignal,
  failed: (errorClass: DeliveryErrorClass) => PostResult,
  elapsed: () => number,
): Promise<PostResult> {
  // One resolution, now; the connection below goes to these addresses and no others.
  let addresses: ResolvedAddress[];
  const literal = isIP(host);
  if (literal) addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  else {
    try {
      const timedOut = new Promise<never>((_, reject) =>
        deadline.addEventListener("abort", () => reject(deadline.reason), { once: true }),
      );
      addresses = await Promise.race([(opts.resolve ?? systemResolver)(host), timedOut]);
    } catch {
      return failed(deadline.aborted ? "timeout" : "dns");
    }
    if (addresses.length === 0) return failed("dns");
  }
  if (!opts.allowPrivate && !addresses.every((a) => isPublicAddress(a.address))) return failed("refused_address");

  const secure = url.protocol === "https:";
  const port = url.port ? Number(url.port) : secure ? 443 : 80;
  return new Promise<PostResult>((resolve) => {
    let settled = false;
    // Once the status line is in, the attempt is judged by it: a body cut short (by the cap, the deadline or the
    // peer) keeps what came.
    let statusCode: number | null = null;
    const chunks: Buffer[] = [];
    // A connection is kept only after an answer read to its end; any other ending closes it.
    const finish = (errorClass?: DeliveryErrorClass, complete = false) => {
      if (settled) return;
      settled = true;
      if (!complete) request.destroy();
      if (statusCode === null) {
        resolve({ statusCode: null, excerpt: null, errorClass: errorClass ?? "connection", durationMs: elapsed() });
        return;
      }
      const ok = statusCode >= 200 && statusCode < 300;
      const redirect = statusCode >= 300 && statusCode < 400;
      resolve({
        statusCode,
        excerpt: excerptOf(chunks),
        errorClass: ok ? null : redirect ? "redirect" : "http_status",
        durationMs: elapsed(),
      });
    };
    const request = (secure ? https : http).request({
      method: "POST",
      host,
      port,
      path: `${url.pathname}${url.search}`,
      headers: {
        ...opts.headers,
        "content-type": "application/json",
        "content-length": String(Buffer.byteLength(opts.body)),
        "user-agent": "Shipwell-Webhooks/1",
      },
      agent: pooledAgent(secure, host, port, addresses),
      lookup: pinnedLookup(addresses),
      ...(secure && !literal ? { servername: host } : {}),
      signal: deadline,
    });
    request.on("response", (answer) => {
      statusCode = answer.statusCode ?? null;
      let size = 0;
      answer.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= MAX_ANSWER_BYTES) finish();
      });
      answer.on("end", () => finish(undefined, true));
      answer.on("error", () => finish());
      answer.on("aborted", () => finish());
    });
    request.on("error", (err) => finish(deadline.aborted ? "timeout" : classify(err)));
    request.end(opts.body);
  });
}
