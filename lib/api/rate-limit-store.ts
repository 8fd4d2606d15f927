import "server-only";
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { addressLimiter, rateLimiter, type Settle, type SettleEntry } from "./rate-limit";

// Buckets untouched for two of their windows are full again (debt is floored at minus one capacity): dropped.
const PRUNE_EVERY = 240;

/** What a bucket is called in Postgres: a hash of the limit's name and what it counts (never an address or email). */
const storedKey = (scope: string, key: string) =>
  createHash("sha256").update(`${scope}\u0000${key}`).digest("base64url");

/**
 * Settles a batch of buckets with `rate_limits` in one statement: each row is refilled for the time since its last
 * settle (by the database's clock, so instances' clocks need not agree), charged what was spent here, and its new
 * balance answered. Rows are written in key order (the insert's `order by key`, which its conflicts lock in), so two
 * instances settling overlapping batches never deadlock.
 */
export function postgresSettle(scope: string): Settle {
  let settles = 0;
  return async (entries: SettleEntry[]) => {
    const db = await getDb();
    const batch = entries.map((e) => ({
      key: storedKey(scope, e.key),
      spent: e.spent,
      capacity: e.limit,
      window_ms: e.windowMs,
    }));
    const rows = rowsOf<{ key: string; tokens: number }>(
      await db.execute(sql`
        with batch as (
          select * from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb)
            as b(key text, spent double precision, capacity double precision, window_ms integer)
        )
        insert into rate_limits as r (key, tokens, capacity, window_ms, updated_at)
        select key, least(capacity, capacity - spent), capacity, window_ms, now() from batch order by key
        on conflict (key) do update set
          tokens = greatest(
            -excluded.capacity,
            least(
              excluded.capacity,
              r.tokens
                + greatest(0, extract(epoch from excluded.updated_at - r.updated_at)) * 1000
                  * excluded.capacity / excluded.window_ms
            ) - (select spent from batch where batch.key = r.key)
          ),
          capacity = excluded.capacity,
          window_ms = excluded.window_ms,
          updated_at = excluded.updated_at
        returning key, tokens`),
    );
    if (++settles % PRUNE_EVERY === 0) {
      await db.execute(
        sql`delete from rate_limits where updated_at < now() - make_interval(secs => 2 * window_ms / 1000.0)`,
      );
    }
    const balance = new Map(rows.map((r) => [r.key, Number(r.tokens)]));
    return entries.map((e) => balance.get(storedKey(scope, e.key)) ?? e.limit);
  };
}

/** Shares the per-key/per-person and per-address API buckets with the other instances (lib/start-server.ts). */
export function shareApiLimits(): void {
  rateLimiter.share(postgresSettle("api"));
  addressLimiter.share(postgresSettle("address"));
}
