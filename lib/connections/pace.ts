import "server-only";
import { sql } from "drizzle-orm";
import { carrierPacing } from "@/lib/db/schema";
import { rowsOf } from "@/lib/db/rows";
import type { DbOrTx } from "@/lib/db/tx";
import { log } from "@/lib/log";

/** The budget a connection's batch calls share (swept with the connection). */
export const batchPaceKey = (connectionId: string) => `batch:${connectionId}`;

/**
 * How late after its slot a call may still start. Slots are `(1 000 + this) / budget` ms apart, so the slots of calls
 * that started in any one second, each at most this late, number at most the budget.
 */
export const PACE_TOLERANCE_MS = 50;

/**
 * A call that keeps waking too late takes a new slot at most this many times, then starts anyway (logged): a database
 * whose every answer takes longer than the tolerance would otherwise hold the batch forever.
 */
const MAX_RETAKES = 10;

/**
 * Waits for the next start a connection's budget allows (`callsPerSecond`), across every instance on the database,
 * such that no second holds more starts than the budget.
 * - One statement takes the next free slot (the later of the stored one and now, by the database's clock) and moves
 *   it on by one spacing; the caller waits until its slot. Several instances working one batch (docs/architecture.md,
 *   "Batches") together stay within the budget, where a pacer per process let each spend all of it.
 * - A caller woken more than PACE_TOLERANCE_MS after its slot (a busy process, a slow answer from the database) would
 *   start beside the calls of later slots; it takes a new slot instead. Its lateness is measured from when the
 *   statement was sent, the earliest it can have run, so it is never underestimated, whatever the clocks say.
 * - `lastCheck` runs once the slot has come (a batch cancelled meanwhile throws); its time counts as lateness.
 * - A slot taken and then given up (a late caller, a cancelled batch) is spent, never lent back.
 * Call it right before the carrier call: time spent between the two is lateness the tolerance does not cover.
 */
export async function paceShared(
  db: DbOrTx,
  key: string,
  callsPerSecond: number,
  lastCheck?: () => Promise<void>,
): Promise<void> {
  const spacingMs = (1000 + PACE_TOLERANCE_MS) / callsPerSecond;
  for (let retakes = 0; ; retakes++) {
    const sent = performance.now();
    const wait = await takeSlot(db, key, spacingMs);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    await lastCheck?.();
    const late = performance.now() - (sent + wait);
    if (late <= PACE_TOLERANCE_MS) return;
    if (retakes === MAX_RETAKES) {
      log().warn({ msg: "paced call started late; this second may exceed its budget", key, late_ms: Math.round(late) });
      return;
    }
  }
}

/** The next free slot's distance from now, in ms (0 when the budget is idle). */
async function takeSlot(db: DbOrTx, key: string, spacingMs: number): Promise<number> {
  const [slot] = rowsOf<{ wait_ms: number }>(
    await db.execute(sql`
      insert into ${carrierPacing} as p (key, next_at)
      values (${key}, clock_timestamp() + ${spacingMs}::float8 * interval '1 millisecond')
      on conflict (key) do update
        set next_at = greatest(p.next_at, clock_timestamp()) + ${spacingMs}::float8 * interval '1 millisecond'
      returning greatest(0, extract(epoch from p.next_at - clock_timestamp()) * 1000 - ${spacingMs}::float8)::float8 as wait_ms
    `),
  );
  return Number(slot?.wait_ms ?? 0);
}
