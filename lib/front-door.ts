import "server-only";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { optionsAnswer, unreadableTarget, unservedMethod } from "@/lib/api/fallback";
import { SECURITY_HEADERS } from "@/lib/security-headers";

// The methods Next.js 16 routes (its HTTP_METHODS); a route file exports some of them, and 405s the rest itself.
const ROUTED = new Set(["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"]);

type Answer = ReturnType<typeof unservedMethod>;
const headersOf = (answer: Answer, close = true) => ({
  ...SECURITY_HEADERS,
  ...answer.headers,
  ...(answer.status === 204 ? {} : { "Content-Length": String(Buffer.byteLength(answer.body)) }),
  ...(close ? { Connection: "close" } : {}),
});

/** For a socket the HTTP parser gave up on, or a CONNECT: the answer written as raw HTTP/1.1, then the socket ends. */
function writeRaw(socket: Duplex, answer: Answer): void {
  if (!socket.writable) return void socket.destroy();
  // With pipelining, the parser may give up on a request while the one before it is still being answered: that
  // answer goes out first, whole, or a client would read this refusal as the answer to a request that did run.
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (inFlight && !inFlight.writableFinished) {
    inFlight.once("finish", () => writeRaw(socket, answer));
    inFlight.once("close", () => socket.writable || socket.destroy());
    return;
  }
  const head = [`HTTP/1.1 ${answer.status} ${http.STATUS_CODES[answer.status]}`];
  for (const [name, value] of Object.entries(headersOf(answer))) head.push(`${name}: ${value}`);
  socket.end(`${head.join("\r\n")}\r\n\r\n${answer.body}`);
}

/** An answer the front door gives itself to a request Node.js parsed. */
function answer(res: ServerResponse, a: Answer, close = true): true {
  res.writeHead(a.status, headersOf(a, close)).end(a.body);
  return true;
}

const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

const refuseConnect = (req: IncomingMessage, socket: Duplex) => {
  // A CONNECT's socket is handed over whole: Node.js no longer handles its errors (a reset would crash the process).
  socket.on("error", () => socket.destroy());
  writeRaw(socket, unservedMethod("CONNECT", null, header(req, "x-request-id")));
};

/**
 * What the Node.js server does with a request before Next.js sees it (installed once per server process by
 * instrumentation.ts). Next.js 16 answers every method outside ROUTED outside our envelope, and neither a route file
 * nor proxy.ts can step in: TRACE cannot even become a fetch Request (a bare 500, and a stack trace logged per
 * request), PROPFIND and the like get a bare 400, a method Node.js does not know a bare 400 from Node.js itself, and
 * CONNECT a dropped connection. So the server's own events are intercepted here, and those requests answer 405 in the
 * envelope, with `Allow` when the path is ours. It patches every HTTP server of the process (there is only Next.js's).
 * Returns the function that undoes it (for tests).
 */
export function openFrontDoor(): () => void {
  // Once per process, however often start-up runs (a dev reload): a second door would append the peer twice.
  const g = globalThis as unknown as { __shipwellFrontDoor?: () => void };
  if (g.__shipwellFrontDoor) return g.__shipwellFrontDoor;
  const emit = http.Server.prototype.emit;
  const connectHandled = new WeakSet<http.Server>();
  http.Server.prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === "connection" && !connectHandled.has(this)) {
      // Node.js drops a CONNECT unless someone listens for it; nothing tunnels here, so it is refused instead.
      connectHandled.add(this);
      if (this.listenerCount("connect") === 0) this.on("connect", refuseConnect);
    } else if (event === "request") {
      const [req, res] = args as [IncomingMessage, ServerResponse];
      const requestId = header(req, "x-request-id");
      if (!ROUTED.has(req.method ?? ""))
        return answer(res, unservedMethod(req.method ?? null, req.url ?? null, requestId));
      // `*`, a whole URL or undecodable escapes: Next.js answers a bare 500 (and logs a stack) or redirects to the
      // host the client named.
      const unreadable = unreadableTarget(req.url ?? "", requestId);
      if (unreadable) return answer(res, unreadable);
      // Next.js would list every exported method in Allow, the ones a route refuses with 405 too.
      if (req.method === "OPTIONS") return answer(res, optionsAnswer(req.url ?? "/", requestId), false);
      // The peer's address, appended as a proxy appends it: what a client wrote itself stays to its left, where the
      // per-address limit never reads (lib/api/client-address.ts). Next.js only fills the header in when it is absent.
      const peer = req.socket.remoteAddress;
      if (peer) {
        const given = header(req, "x-forwarded-for");
        req.headers["x-forwarded-for"] = given ? `${given}, ${peer}` : peer;
      }
    } else if (event === "clientError") {
      const [err, socket] = args as [NodeJS.ErrnoException, Duplex];
      if (err.code === "HPE_INVALID_METHOD") {
        writeRaw(socket, unservedMethod(null, null));
        return true;
      }
    }
    return Reflect.apply(emit, this, [event, ...args]) as boolean;
  } as typeof emit;
  g.__shipwellFrontDoor = () => {
    http.Server.prototype.emit = emit;
    g.__shipwellFrontDoor = undefined;
  };
  return g.__shipwellFrontDoor;
}
