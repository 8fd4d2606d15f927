/**
 * A Postgres wire-protocol door onto an embedded PGlite data folder, for one client at a time: the seeding in
 * scripts/seed-shipments.mts speaks postgres.js, and PGlite answers the protocol itself (startup included), so the
 * same seed fills either engine. PGlite is single-process: open this only while no server holds the folder.
 */
import { createServer, type AddressInfo } from "node:net";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

const TERMINATE = 0x58; // 'X'

export interface PgliteWire {
  /** A postgres:// URL to hand postgres.js (with max: 1). */
  url: string;
  close: () => Promise<void>;
}

export async function openPgliteWire(dataDir: string): Promise<PgliteWire> {
  // pg_trgm backs the shipments' search index, as in lib/db/client.ts.
  const db = new PGlite(dataDir, { extensions: { pg_trgm } });
  await db.waitReady;
  // One queue for every connection: PGlite runs one protocol exchange at a time.
  let queue = Promise.resolve();
  const server = createServer((socket) => {
    let pending = Buffer.alloc(0);
    let started = false;
    socket.on("data", (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      // Whole messages only: the startup message is length-first, every later one is a type byte, then length.
      let end = 0;
      let terminate = false;
      for (;;) {
        const head = started ? 1 : 0;
        if (pending.length - end < head + 4) break;
        if (started && pending[end] === TERMINATE) {
          terminate = true;
          break;
        }
        const size = head + pending.readInt32BE(end + head);
        if (pending.length - end < size) break;
        end += size;
        started = true;
      }
      const messages = new Uint8Array(pending.subarray(0, end));
      pending = pending.subarray(end);
      queue = queue
        .then(async () => {
          if (messages.length === 0) return;
          const answer = await db.execProtocolRaw(messages);
          if (answer.length > 0) socket.write(answer);
        })
        .then(() => void (terminate && socket.end()))
        .catch((err: Error) => void socket.destroy(err));
    });
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      await queue;
      await db.close();
    },
  };
}
