import "server-only";
import { sql } from "drizzle-orm";
import { carrierPacing } from "@/lib/db/schema";
import { rowsOf } from "@/lib/db/rows";
import type { DbOrTx } from "@/lib/db/tx";

/** The budget a connection's batch calls share (swept with the connection). */
export const batchPaceKey = (connectionId: string) => `batch:${connectionId}`;

/**
 * Waits for the next start a connection's budget allows (`callsPerSecond`), across every instance on the database:
 * one statement takes the next free slot (the later of the stored one and now, by the database's clock, so instances'
 * clocks do not matter) and moves it on by one spacing; the caller waits until its slot. Several instances working one
 * batch (docs/architecture.md, "Batches") together stay within the budget, where a pacer per process let each
 * spend all of it. A slot taken by a call that is then given up (a cancelled batch) is spent, never lent back.
 */
export async function paceShared(db: DbOrTx, key: string, callsPerSecond: number): Promise<void> {
  const spacingMs = 1000 / callsPerSecond;
  const [slot] = rowsOf<{ wait_ms: number }>(
    await db.execute(sql`
      insert into ${carrierPacing} as p (key, next_at)
      values (${key}, clock_timestamp() + ${spacingMs}::float8 * interval '1 millisecond')
      on conflict (key) do update
        set next_at = greatest(p.next_at, clock_timestamp()) + ${spacingMs}::float8 * interval '1 millisecond'
      returning greatest(0, extract(epoch from p.next_at - clock_timestamp()) * 1000 - ${spacingMs}::float8)::float8 as wait_ms
    `),
  );
  const wait = Number(slot?.wait_ms ?? 0);
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}
