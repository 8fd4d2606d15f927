import { afterAll, describe, expect, it } from "vitest";
import { mostInOneSecond } from "./starts";

/**
 * A connection's batch budget taken slot by slot in the database (lib/connections/pace.ts), so that every instance on
 * it shares one budget. Callers here race as several instances' workers would: nothing is kept in the process. The
 * bounds are lower bounds on when calls start (a slow machine only starts them later), never upper ones.
 */
afterAll(async () => {
  const { closeDb } = await import("@/lib/db/client");
  await closeDb();
});

async function startsOf(key: string, perSecond: number, calls: number) {
  const { getDb } = await import("@/lib/db/client");
  const { paceShared } = await import("@/lib/connections/pace");
  const db = await getDb();
  const began = performance.now();
  const starts = await Promise.all(
    Array.from({ length: calls }, () => paceShared(db, key, perSecond).then(() => performance.now() - began)),
  );
  return starts.sort((a, b) => a - b);
}

// Of the clocks' disagreement (the database's and this process's) and timer rounding, a few milliseconds.
const SLACK_MS = 5;

describe("a connection's shared pace", () => {
  it("starts racing calls one spacing apart: the k-th no sooner than k spacings after the first", async () => {
    const key = `batch:pace-${Date.now()}`;
    const starts = await startsOf(key, 20, 8);
    starts.forEach((at, k) => expect(at, `call ${k}`).toBeGreaterThanOrEqual(k * 50 - SLACK_MS));
  });

  it("never lets one second hold more starts than the budget, even when the process is held up", async () => {
    const { getDb } = await import("@/lib/db/client");
    const { paceShared } = await import("@/lib/connections/pace");
    const db = await getDb();
    const key = `batch:late-${Date.now()}`;
    const began = performance.now();
    const pending = Array.from({ length: 15 }, () => paceShared(db, key, 10).then(() => performance.now() - began));
    // Busy from 150 to 450 ms (as a process drawing labels can be): the calls whose slots pass meanwhile wake late
    // together, with the one whose slot comes as the process is free again.
    await new Promise((resolve) => setTimeout(resolve, 150));
    const until = performance.now() + 300;
    while (performance.now() < until) {
      /* held up */
    }
    const starts = (await Promise.all(pending)).sort((a, b) => a - b);
    expect(mostInOneSecond(starts)).toBeLessThanOrEqual(10);
    // The late calls took new slots rather than being dropped.
    expect(starts).toHaveLength(15);
  });

  it("runs the last step as the slot comes, and a throw stops the call", async () => {
    const { getDb } = await import("@/lib/db/client");
    const { paceShared } = await import("@/lib/connections/pace");
    const db = await getDb();
    const key = `batch:check-${Date.now()}`;
    const began = performance.now();
    await paceShared(db, key, 10);
    let checkedAt = -1;
    let startedAt = -1;
    await paceShared(db, key, 10, {
      last: async () => {
        checkedAt = performance.now() - began;
      },
    });
    startedAt = performance.now() - began;
    // The second slot is 105 ms after the first; the step runs shortly before it (by its own last duration), the call
    // no sooner than it.
    expect(checkedAt).toBeGreaterThanOrEqual(80);
    expect(startedAt).toBeGreaterThanOrEqual(105 - SLACK_MS);
    await expect(
      paceShared(db, key, 10, { last: () => Promise.reject(new Error("cancelled meanwhile")) }),
    ).rejects.toThrow("cancelled meanwhile");
  });

  it("a late call undoes its last step and waits for a new slot", async () => {
    const { getDb } = await import("@/lib/db/client");
    const { paceShared } = await import("@/lib/connections/pace");
    const db = await getDb();
    const key = `batch:undo-${Date.now()}`;
    const log: string[] = [];
    let calls = 0;
    await paceShared(db, key, 10, {
      last: async () => {
        log.push("last");
        // The first time, as slow as a claim behind a busy database: the call would start 120 ms after its slot.
        if (calls++ === 0) await new Promise((resolve) => setTimeout(resolve, 120));
      },
      undo: async () => {
        log.push("undo");
      },
    });
    expect(log).toEqual(["last", "undo", "last"]);
  });

  it("does not count the database's round trip as lateness", async () => {
    const { getDb } = await import("@/lib/db/client");
    const { paceShared } = await import("@/lib/connections/pace");
    const real = await getDb();
    // Every statement 100 ms each way, as a database across a long network path: each half more than the tolerance.
    const far = new Proxy(real, {
      get(target, prop, receiver) {
        if (prop !== "execute") return Reflect.get(target, prop, receiver);
        return async (query: unknown) => {
          await new Promise((resolve) => setTimeout(resolve, 100));
          const result = await target.execute(query as Parameters<typeof target.execute>[0]);
          await new Promise((resolve) => setTimeout(resolve, 100));
          return result;
        };
      },
    });
    // Each call on a key of its own, idle, so its slot is the database's now (plus the answer's way back). Counting
    // the way back as lateness, every call would retake its slot ten times and run `last` eleven times.
    let lasts = 0;
    for (let k = 0; k < 4; k++) {
      await paceShared(far, `batch:far-${k}-${Date.now()}`, 20, { last: async () => void lasts++ });
    }
    // The first call may learn the way back by one retake; a slow machine may add one more.
    expect(lasts).toBeLessThanOrEqual(6);
  });

  it("does not wait for a slot further off than withinMs, but spends it", async () => {
    const { getDb } = await import("@/lib/db/client");
    const { paceShared } = await import("@/lib/connections/pace");
    const { sql } = await import("drizzle-orm");
    const { rowsOf } = await import("@/lib/db/rows");
    const db = await getDb();
    const key = `batch:within-${Date.now()}`;
    // One call in 10 s: the second call's slot is 10.5 s away, well past its 1 s.
    await paceShared(db, key, 0.1);
    const began = performance.now();
    await paceShared(db, key, 0.1, { withinMs: 1_000 });
    expect(performance.now() - began).toBeLessThan(5_000);
    // Its slot was taken all the same: the next call would wait two spacings.
    const [row] = rowsOf<{ ahead_ms: number }>(
      await db.execute(sql`select (extract(epoch from next_at - clock_timestamp()) * 1000)::float8 as ahead_ms
        from carrier_pacing where key = ${key}`),
    );
    expect(Number(row!.ahead_ms)).toBeGreaterThan(15_000);
  });

  it("keeps each connection's budget to itself", async () => {
    const { getDb } = await import("@/lib/db/client");
    const { paceShared } = await import("@/lib/connections/pace");
    const { sql } = await import("drizzle-orm");
    const { rowsOf } = await import("@/lib/db/rows");
    const db = await getDb();
    const stamp = Date.now();
    // One call each, a second's budget apart: each key's next slot moved by its own spacing only.
    await paceShared(db, `batch:a-${stamp}`, 1);
    await paceShared(db, `batch:b-${stamp}`, 1000);
    const rows = rowsOf<{ key: string; ahead_ms: number }>(
      await db.execute(sql`select key, (extract(epoch from next_at - clock_timestamp()) * 1000)::float8 as ahead_ms
        from carrier_pacing where key like ${`batch:_-${stamp}`} order by key`),
    );
    expect(rows.map((r) => r.key)).toEqual([`batch:a-${stamp}`, `batch:b-${stamp}`]);
    expect(Number(rows[0]!.ahead_ms)).toBeGreaterThan(100);
    expect(Number(rows[1]!.ahead_ms)).toBeLessThanOrEqual(1);
  });
});
