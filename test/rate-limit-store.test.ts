import { describe, expect, it } from "vitest";

/** The shared buckets' arithmetic in Postgres (lib/api/rate-limit-store.ts); the instances' side is unit-tested. */
describe.skipIf(!process.env.DATABASE_URL)("rate_limits (Postgres)", () => {
  it("charges what was spent, refills by the database's clock, floors debt at one capacity, keeps no raw key", async () => {
    const { sql } = await import("drizzle-orm");
    const { getDb } = await import("@/lib/db/client");
    const { rowsOf } = await import("@/lib/db/rows");
    const { postgresSettle } = await import("@/lib/api/rate-limit-store");
    const settle = postgresSettle("test");
    const key = `203.0.113.${Math.floor(Math.random() * 250)}-${Date.now()}`;
    // An hour's window: what refills between two statements is far below a token.
    const entry = (spent: number) => ({ key, spent, limit: 10, windowMs: 3_600_000 });

    expect(await settle([entry(4)])).toEqual([6]);
    const [afterSecond] = await settle([entry(8)]);
    expect(afterSecond).toBeCloseTo(-2, 2);
    const [floored] = await settle([entry(50)]);
    expect(floored).toBe(-10);
    const [refunded] = await settle([entry(-3)]);
    expect(refunded).toBeCloseTo(-7, 2);
    // Twelve minutes later by the database's clock: two tokens of ten an hour came back.
    const db = await getDb();
    await db.execute(sql`update rate_limits set updated_at = updated_at - interval '12 minutes' where tokens < 0`);
    const [refilled] = await settle([entry(0)]);
    expect(refilled).toBeCloseTo(-5, 2);
    // Another limit counting the same thing has a bucket of its own.
    expect(await postgresSettle("other")([entry(1)])).toEqual([9]);

    const rows = rowsOf<{ key: string }>(await db.execute(sql`select key from rate_limits`));
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows.some((r) => r.key.includes("203.0.113"))).toBe(false);
  });

  it("settles two instances' overlapping batches at once without a deadlock", async () => {
    const { postgresSettle } = await import("@/lib/api/rate-limit-store");
    const keys = Array.from({ length: 50 }, (_, i) => `k${i}-${Date.now()}`);
    // A hundred an hour: what refills between the two statements stays far below the precision asserted.
    const batch = (order: string[]) => order.map((key) => ({ key, spent: 1, limit: 100, windowMs: 3_600_000 }));
    const [a, b] = await Promise.all([
      postgresSettle("api")(batch(keys)),
      postgresSettle("api")(batch([...keys].reverse())),
    ]);
    // Every bucket charged by both: one of the two answers saw the other's charge.
    for (let i = 0; i < keys.length; i++) expect(Math.min(a![i]!, b![keys.length - 1 - i]!)).toBeCloseTo(98, 1);
  });

  it("drops, every 240th settle, the buckets untouched for two of their windows", async () => {
    const { sql } = await import("drizzle-orm");
    const { getDb } = await import("@/lib/db/client");
    const { rowsOf } = await import("@/lib/db/rows");
    const { postgresSettle } = await import("@/lib/api/rate-limit-store");
    const db = await getDb();
    const stale = `stale-${Date.now()}`;
    const recent = `recent-${Date.now()}`;
    // A minute's window: untouched for three minutes is full again; touched thirty seconds ago is not.
    await db.execute(sql`insert into rate_limits (key, tokens, capacity, window_ms, updated_at) values
      (${stale}, 1, 10, 60000, now() - interval '3 minutes'),
      (${recent}, 1, 10, 60000, now() - interval '30 seconds')`);
    const left = async () =>
      rowsOf<{ key: string }>(await db.execute(sql`select key from rate_limits where key in (${stale}, ${recent})`))
        .map((r) => r.key)
        .sort();
    const settle = postgresSettle("prune");
    const entry = [{ key: "k", spent: 0, limit: 10, windowMs: 60_000 }];
    for (let i = 0; i < 239; i++) await settle(entry);
    expect(await left()).toEqual([recent, stale]);
    await settle(entry);
    expect(await left()).toEqual([recent]);
  });
});
