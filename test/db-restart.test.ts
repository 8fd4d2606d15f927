import net from "node:net";
import { afterAll, describe, expect, it } from "vitest";

/**
 * The database going away and coming back, on real Postgres: a TCP relay in front of it is closed (database
 * down), opened (database back), and has every connection cut (database restarted under live connections).
 */
const upstream = process.env.DATABASE_URL ? new URL(process.env.DATABASE_URL) : null;
const sockets = new Set<net.Socket>();
const relay = net.createServer((client) => {
  const server = net.connect(Number(upstream!.port || 5432), upstream!.hostname);
  for (const s of [client, server]) {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
    s.on("error", () => s.destroy());
  }
  client.pipe(server).pipe(client);
});
let port = 0;

if (upstream) {
  // Reserve a port, then leave it closed: the "database" starts down.
  port = await new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port: p } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(p));
    });
  });
  const through = new URL(upstream);
  through.hostname = "127.0.0.1";
  through.port = String(port);
  process.env.DATABASE_URL = through.toString();
}

afterAll(async () => {
  for (const s of sockets) s.destroy();
  relay.close();
  const { closeDb } = await import("@/lib/db/client");
  await closeDb();
});

describe.skipIf(!upstream)("database restarts (Postgres)", () => {
  it("answers 503 while the database is down and recovers by itself when it is back", async () => {
    const { GET } = await import("@/app/v1/connections/route");
    const { call, makeOrg } = await import("./helpers");

    const down = await call(GET, "GET", "/v1/connections", { key: "shw_any-key-while-the-database-is-down-000" });
    expect(down.status).toBe(503);
    expect(down.headers.get("retry-after")).toBe("5");

    await new Promise<void>((resolve) => relay.listen(port, "127.0.0.1", resolve));
    const { key } = await makeOrg();
    expect((await call(GET, "GET", "/v1/connections", { key })).status).toBe(200);

    // Restart under live connections: every pooled connection is cut.
    for (const s of sockets) s.destroy();
    const after = [];
    for (let i = 0; i < 3; i++) after.push((await call(GET, "GET", "/v1/connections", { key })).status);
    expect(after.every((s) => s === 200 || s === 503)).toBe(true);
    expect(after.at(-1)).toBe(200);
  });
});
