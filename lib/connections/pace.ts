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
 * A call that keeps waking too late takes a new slot at most this many times, then starts anyway (with a warning): a
 * process held up that long would otherwise never start it.
 */
const MAX_RETAKES = 10;

/** What a paced call does once its slot has come, right before the carrier: its time counts as lateness. */
export interface PaceSteps {
  /** A batch's cancel check, a purchase's claim. Run shortly before the slot, by how long it took last time. */
  last?: () => Promise<void>;
  /** Undoes `last` when the call turned out late and waits for a new slot (a purchase gives its claim back). */
  undo?: () => Promise<void>;
  /**
   * The longest wait worth making (a request of a call under way, before its deadline): a slot further off is taken
   * but not waited for, and the call starts at once, since waiting would only end in a timeout.
   */
  withinMs?: number;
}

/**
 * Waits for the next start a connection's budget allows (`callsPerSecond`), across every instance on the database,
 * such that no second holds more starts than the budget.
 * - One statement takes the next free slot (the later of the stored one and now, by the database's clock) and moves
 *   it on by one spacing; the caller waits until its slot. Several instances working one batch (docs/architecture.md,
 *   "Batches") together stay within the budget, where a pacer per process let each spend all of it.
 * - The slot is placed on this process's clock by the database's clock (dbClock below), and a slot on an idle key is
 *   the database's now plus the answer's trip back to this process (as last measured), so neither half of the
 *   statement's round trip is lateness; only the time a call starts after its slot is.
 * - A caller that would start more than PACE_TOLERANCE_MS after its slot (a busy process, a slow `last`) would start
 *   beside the calls of later slots; it undoes `last` and takes a new slot instead.
 * - A slot taken and then given up (a late caller, a cancelled batch) is spent, never lent back.
 * Call it right before the carrier call: time spent between the two is lateness the tolerance does not cover.
 */
export async function paceShared(
  db: DbOrTx,
  key: string,
  callsPerSecond: number,
  steps: PaceSteps = {},
): Promise<void> {
  const spacingMs = (1000 + PACE_TOLERANCE_MS) / callsPerSecond;
  const latest = now() + (steps.withinMs ?? Infinity);
  for (let retakes = 0; ; retakes++) {
    const slotAt = await takeSlot(db, key, spacingMs);
    if (slotAt > latest) {
      log().warn({ msg: "paced call's slot comes after its deadline; it starts now, beyond the budget", key });
      return;
    }
    if (steps.last) {
      await sleepUntil(slotAt - lastStepMs);
      const began = now();
      await steps.last();
      lastStepMs = (lastStepMs + (now() - began)) / 2;
    }
    await sleepUntil(slotAt);
    const late = now() - slotAt;
    if (late <= PACE_TOLERANCE_MS) return;
    if (retakes === MAX_RETAKES) {
      log().warn({ msg: "paced call started late; this second may exceed its budget", key, late_ms: Math.round(late) });
      return;
    }
    await steps.undo?.();
  }
}

/**
 * This process's clock: monotonic (an NTP step or a test's fake Date does not move it), on the wall clock's scale from
 * the process's start. The database's clock is read against it (dbClock).
 */
const now = () => performance.timeOrigin + performance.now();

/** How long `last` took, averaged: it runs that much before the slot. */
let lastStepMs = 0;

/** Never early: a timer may fire a fraction of a millisecond before its time. */
async function sleepUntil(at: number): Promise<void> {
  for (let left = at - now(); left > 0; left = at - now()) {
    await new Promise((resolve) => setTimeout(resolve, Math.ceil(left)));
  }
}

/**
 * The next free slot, on this process's clock (now()). No sooner than the database's now plus `answerMs`: a slot that
 * is the database's now has passed by the time its answer arrives, and against a database farther away than the
 * tolerance every call on an idle key would wake late, retake, and be late again.
 */
async function takeSlot(db: DbOrTx, key: string, spacingMs: number): Promise<number> {
  const sent = now();
  const [slot] = rowsOf<{ slot_ms: number; now_ms: number }>(
    await db.execute(sql`
      insert into ${carrierPacing} as p (key, next_at)
      values (${key}, clock_timestamp() + (${answerMs}::float8 + ${spacingMs}::float8) * interval '1 millisecond')
      on conflict (key) do update
        set next_at = greatest(p.next_at, clock_timestamp() + ${answerMs}::float8 * interval '1 millisecond')
          + ${spacingMs}::float8 * interval '1 millisecond'
      returning (extract(epoch from p.next_at) * 1000 - ${spacingMs}::float8)::float8 as slot_ms,
        (extract(epoch from clock_timestamp()) * 1000)::float8 as now_ms
    `),
  );
  const received = now();
  const offset = dbClock.offset(Number(slot!.now_ms), sent, received);
  // The answer's trip back: from the database reading its clock to this process having the answer. A queue for a
  // connection comes before the reading, so it does not count; a process busy as the answer came does, once.
  answerMs = Math.max(0, received - (Number(slot!.now_ms) - offset));
  return Number(slot!.slot_ms) - offset;
}

/** The last statement's answer trip (takeSlot): how far ahead of the database's now a slot on an idle key is put. */
let answerMs = 0;

/**
 * The database's clock less this process's, as NTP reads it: the database read its clock between `sent` and
 * `received`, so the offset is its reading less their midpoint, within half the round trip. The reading of the
 * quickest round trip in the last minute is kept, so a slow answer (a queue for a connection) does not move it, unless
 * a new reading cannot be squared with it (a clock was set meanwhile).
 */
const dbClock = {
  best: null as { offset: number; roundTrip: number; at: number } | null,
  offset(dbNow: number, sent: number, received: number): number {
    const reading = { offset: dbNow - (sent + received) / 2, roundTrip: received - sent, at: received };
    const best = this.best;
    const squares = best && Math.abs(reading.offset - best.offset) <= (reading.roundTrip + best.roundTrip) / 2 + 1;
    if (!best || !squares || reading.roundTrip <= best.roundTrip || received - best.at > 60_000) this.best = reading;
    return this.best!.offset;
  },
};
