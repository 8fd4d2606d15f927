import net from "node:net";

/**
 * A TCP relay in front of a database that a test switches: `up` (bytes pass both ways), `down` (every connection
 * cut and the port closed: what a stopped Postgres looks like), `silent` (every connection cut, new ones accepted
 * and never answered: a host that vanished from the network, where only the connect timeout ends an attempt).
 */
export interface TcpRelay {
  /** DATABASE_URL with the relay's address in place of the database's. */
  url: string;
  up(): Promise<void>;
  down(): Promise<void>;
  silent(): Promise<void>;
  close(): Promise<void>;
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
  let mode: "up" | "down" | "silent" = "down";
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
    s.on("error", () => s.destroy());
  };
  const server = net.createServer((client) => {
    track(client);
    if (mode !== "up") return; // silent: held open, never answered
    const db = net.connect(Number(upstream.port || 5432), upstream.hostname);
    track(db);
    client.pipe(db).pipe(client);
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
    async close() {
      mode = "down";
      cutAll();
      await unlisten();
    },
  };
}
