import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A webhook as a receiver got it. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** The parsed body. */
  json: { id: string; type: string; created_at: string; test_mode: boolean; data: Record<string, unknown> };
}

/** What a receiver answers the n-th request with (0-based); `hang` never answers. */
export type Answer = { status: number; body?: string; headers?: Record<string, string>; delayMs?: number } | "hang";

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  abandoned(): number;
  close(): Promise<void>;
}

/** A real HTTP receiver on 127.0.0.1 (tests allow private addresses to reach it). */
export async function startReceiver(answer: (n: number, got: Received) => Answer = () => ({ status: 200 })) {
  const received: Received[] = [];
  const hanging = new Set<ServerResponse>();
  const abandoned = { count: 0 };
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
      const got = { headers: req.headers, body, json };
      received.push(got);
      const a = answer(received.length - 1, got);
      if (a === "hang") {
        hanging.add(res);
        // The sender gave up (its deadline) or the receiver is closing.
        res.on("close", () => {
          if (hanging.delete(res)) abandoned.count++;
        });
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
    /** Requests answered "hang" that the sender has since given up on. */
    abandoned: () => abandoned.count,
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
