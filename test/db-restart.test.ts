import { afterAll, describe, expect, it } from "vitest";
import { tcpRelay, type TcpRelay } from "./tcp-relay";

/**
 * The database going away and coming back, on real Postgres: a TCP relay in front of it is closed (database
 * down), opened (database back), and has every connection cut (database restarted under live connections).
 * test/db-outage.test.ts holds the same under traffic to the promised bounds.
 */
let relay: TcpRelay | null = null;
if (process.env.DATABASE_URL) {
  // The relay starts down: so does the "database".
  relay = await tcpRelay(process.env.DATABASE_URL);
  process.env.DATABASE_URL = relay.url;
}

afterAll(async () => {
  await relay?.close();
  const { closeDb } = await import("@/lib/db/client");
  await closeDb();
});

/** Asks until the answer is not 503, for at most the second the API promises. */
async function untilBack<T extends { status: number }>(ask: () => Promise<T>): Promise<T> {
  const since = performance.now();
  for (;;) {
    const res = await ask();
    if (res.status !== 503 || performance.now() - since > 1_000) return res;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(!relay)("database restarts (Postgres)", () => {
  it("answers 503 while the database is down and recovers by itself when it is back", async () => {
    const { GET } = await import("@/app/v1/connections/route");
    const { GET: ready } = await import("@/app/api/ready/route");
    const { call, makeOrg } = await import("./helpers");

    const down = await call(GET, "GET", "/v1/connections", { key: "shw_any-key-while-the-database-is-down-000" });
    expect(down.status).toBe(503);
    expect(down.headers.get("retry-after")).toBe("5");
    expect((await ready()).status).toBe(503);

    await relay!.up();
    expect((await untilBack(() => ready())).status).toBe(200);
    const { key } = await makeOrg();
    expect((await call(GET, "GET", "/v1/connections", { key })).status).toBe(200);

    // Restart under live connections: every pooled connection is cut, the database stays reachable.
    await relay!.down();
    await relay!.up();
    const after = [];
    for (let i = 0; i < 3; i++) after.push((await call(GET, "GET", "/v1/connections", { key })).status);
    expect(after.every((s) => s === 200 || s === 503)).toBe(true);
    expect(after.at(-1)).toBe(200);
  });
});
