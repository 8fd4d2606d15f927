import net from "node:net";

/**
 * A TCP relay in front of a database that a test switches: `up` (bytes pass both ways), `down` (every connection
 * cut and the port closed: what a stopped Postgres looks like), `silent` (every connection cut, new ones accepted
 * and never answered: a host that vanished from the network, where only the connect timeout ends an attempt),
 * `freeze` (the host powered off mid-query: every connection stays open and no byte passes either way, no close, no
 * reset; new ones are accepted and never answered). `up` after `freeze` cuts the frozen connections, as a host that
 * comes back answers the ones it has forgotten with a reset.
 */
export interface TcpRelay {
  /** DATABASE_URL with the relay's address in place of the database's. */
  url: string;
  up(): Promise<void>;
  down(): Promise<void>;
  silent(): Promise<void>;
  freeze(): Promise<void>;
  /**
   * The next connection let through is terminated once it is ready: the client's first message after the server's
   * first ReadyForQuery is answered as `pg_terminate_backend` answers (a FATAL 57P01 ErrorResponse, then the socket
   * closed), which is what a failover or a restart under traffic does to a connection that has just opened.
   */
  cutNextAfterStartup(): void;
  close(): Promise<void>;
}

// A ReadyForQuery message's type and length (`Z`, 5): the end of the startup exchange.
const READY_FOR_QUERY = Buffer.from([0x5a, 0, 0, 0, 5]);

/** The ErrorResponse a backend sends when it is terminated by an administrator (SQLSTATE 57P01). */
function terminated(): Buffer {
  const fields = [
    ["S", "FATAL"],
    ["V", "FATAL"],
    ["C", "57P01"],
    ["M", "terminating connection due to administrator command"],
  ];
  const body = Buffer.concat([
    ...fields.map(([code, text]) => Buffer.from(`${code}${text}\0`, "utf8")),
    Buffer.from([0]),
  ]);
  const head = Buffer.alloc(5);
  head.write("E", 0);
  head.writeUInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

async function freePort(): Promise<number> {
  return new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Starts down: call up() to let the first connection through. */
export async function tcpRelay(databaseUrl: string): Promise<TcpRelay> {
  const upstream = new URL(databaseUrl);
  const port = await freePort();
  const sockets = new Set<net.Socket>();
  let mode: "up" | "down" | "silent" | "frozen" = "down";
  let cutAfterStartup = false;
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
    s.on("error", () => s.destroy());
  };
  const server = net.createServer((client) => {
    track(client);
    if (mode !== "up") return; // silent, frozen: held open, never answered
    const db = net.connect(Number(upstream.port || 5432), upstream.hostname);
    track(db);
    if (!cutAfterStartup) {
      client.pipe(db).pipe(client);
      return;
    }
    cutAfterStartup = false;
    let ready = false;
    db.on("data", (chunk: Buffer) => {
      client.write(chunk);
      if (chunk.includes(READY_FOR_QUERY)) ready = true;
    });
    client.on("data", (chunk: Buffer) => {
      if (!ready) db.write(chunk);
      else {
        db.destroy();
        client.end(terminated());
      }
    });
  });
  const cutAll = () => {
    for (const s of sockets) s.destroy();
  };
  const listen = () =>
    server.listening ? Promise.resolve() : new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const unlisten = () =>
    server.listening ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
  const through = new URL(upstream);
  through.hostname = "127.0.0.1";
  through.port = String(port);
  return {
    url: through.toString(),
    async up() {
      if (mode === "frozen") cutAll();
      mode = "up";
      await listen();
    },
    async down() {
      mode = "down";
      cutAll();
      await unlisten();
    },
    async silent() {
      mode = "silent";
      cutAll();
      await listen();
    },
    async freeze() {
      mode = "frozen";
      // Nothing read is passed on (paused, nothing piped), and nothing is read: the peer's bytes wait in the buffers.
      for (const s of sockets) {
        s.unpipe();
        s.removeAllListeners("data");
        s.pause();
      }
      await listen();
    },
    cutNextAfterStartup() {
      cutAfterStartup = true;
    },
    async close() {
      mode = "down";
      cutAll();
      await unlisten();
    },
  };
}
