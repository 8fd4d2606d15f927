import { subscribe, unsubscribe } from "node:diagnostics_channel";
import {
  createServer,
  type ClientRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";

/** A webhook as a receiver got it. */
export interface Received {
  method: string | undefined;
  /** The request's path and query, as the request line carried them. */
  path: string | undefined;
  headers: IncomingHttpHeaders;
  body: string;
  /** The parsed body. */
  json: { id: string; type: string; created_at: string; test_mode: boolean; data: Record<string, unknown> };
}

/**
 * What a receiver answers the n-th request with (0-based); `hang` never answers; `open` sends the status and the body
 * at once but never ends the answer.
 */
export type Answer =
  { status: number; body?: string; headers?: Record<string, string>; delayMs?: number; open?: boolean } | "hang";

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  abandoned(): number;
  arrived(n?: number): Promise<void>;
  close(): Promise<void>;
}

/** A real HTTP receiver on 127.0.0.1 (tests allow private addresses to reach it). */
export async function startReceiver(answer: (n: number, got: Received) => Answer = () => ({ status: 200 })) {
  const received: Received[] = [];
  const hanging = new Set<ServerResponse>();
  const abandoned = { count: 0 };
  const waiting: { n: number; resolve: () => void }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      let json: Received["json"];
      try {
        json = JSON.parse(body);
      } catch {
        json = { id: "", type: "", created_at: "", test_mode: false, data: {} };
      }
      const got = { method: req.method, path: req.url, headers: req.headers, body, json };
      received.push(got);
      for (const w of waiting.filter((w) => received.length >= w.n)) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve();
      }
      const a = answer(received.length - 1, got);
      if (a === "hang" || a.open) {
        hanging.add(res);
        // The sender gave up (its deadline) or the receiver is closing.
        res.on("close", () => {
          if (hanging.delete(res)) abandoned.count++;
        });
        if (a !== "hang") res.writeHead(a.status, a.headers ?? {}).write(a.body ?? "");
        return;
      }
      const send = () => res.writeHead(a.status, a.headers ?? {}).end(a.body ?? "");
      if (a.delayMs) setTimeout(send, a.delayMs);
      else send();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    /** Requests answered "hang" or left open that the sender has since given up on. */
    abandoned: () => abandoned.count,
    /** Resolves once the receiver has had `n` requests, each read whole (before it answers the n-th). */
    arrived: (n = 1) =>
      received.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ n, resolve })),
    async close() {
      for (const res of [...hanging]) {
        hanging.delete(res);
        res.destroy();
      }
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  } satisfies Receiver;
}

const ANSWER_HEAD_READ = "http.client.response.finish"; // published as a client has parsed an answer's status line

/**
 * Resolves once this process, as a client, has read the status line and the first bytes of the body of an answer
 * from 127.0.0.1:`port`: a test moves the sender's clock past its deadline only after that. Call it before sending.
 */
export function senderReadsAnswer(port: number): Promise<void> {
  return new Promise((resolve) => {
    const onAnswer = (message: unknown) => {
      const { request, response } = message as { request: ClientRequest; response: IncomingMessage };
      if (request.socket?.remotePort !== port) return;
      unsubscribe(ANSWER_HEAD_READ, onAnswer);
      response.once("data", () => resolve());
    };
    subscribe(ANSWER_HEAD_READ, onAnswer);
  });
}
