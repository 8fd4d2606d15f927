import { describe, expect, it, vi } from "vitest";
import type { Sql } from "postgres";
import { DatabaseCircuit, DatabaseDownError } from "./circuit";
import { guardedSql } from "./guarded-sql";
import { StallWatch } from "./stall-watch";

const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });

/** postgres.js's shape as drizzle uses it: a query runs when first awaited, `.values()` before that changes rows. */
function fakeSql(outcome: () => Promise<unknown>) {
  const ran: { raw: boolean }[] = [];
  const unsafe = vi.fn(() => {
    const state = { raw: false };
    let running: Promise<unknown> | null = null;
    const run = () => (running ??= (ran.push({ ...state }), outcome()));
    const query = {
      values() {
        state.raw = true;
        return query;
      },
      then: (a?: (v: unknown) => unknown, b?: (e: unknown) => unknown) => run().then(a, b),
    };
    return query;
  });
  const begin = vi.fn(() => outcome());
  const sql = Object.assign(() => {}, { unsafe, begin, options: { max: 3 } }) as unknown as Sql;
  return { sql, unsafe, begin, ran };
}

const circuit = () => new DatabaseCircuit({ probe: () => Promise.reject(refused), probeEveryMs: 60_000 });
// Never checks within a test: what it sees in flight is asserted through its spy.
const watch = () => new StallWatch({ stallMs: 60_000, checkEveryMs: 60_000, check: vi.fn(), onUnreachable: vi.fn() });
const guarded = (sql: Sql, c: DatabaseCircuit, w = watch()) => guardedSql({ pool: () => sql, circuit: c, watch: w });

describe("the pool drizzle is given", () => {
  it("runs a query once, with .values() applied before it runs, and answers its rows", async () => {
    const fake = fakeSql(async () => [["a"]]);
    const c = circuit();
    const sql = guarded(fake.sql, c);
    expect(await sql.unsafe("select 1", [], { prepare: true }).values()).toEqual([["a"]]);
    expect(await sql.unsafe("select 1")).toEqual([["a"]]);
    expect(fake.ran).toEqual([{ raw: true }, { raw: false }]);
    expect(fake.unsafe).toHaveBeenCalledWith("select 1", [], { prepare: true });
  });

  it("passes everything else through", () => {
    const fake = fakeSql(async () => []);
    expect(guarded(fake.sql, circuit()).options).toEqual({ max: 3 });
  });

  it("a query or a transaction that cannot reach the database opens the circuit; then nothing reaches the pool", async () => {
    for (const call of [(sql: Sql) => sql.unsafe("select 1").values(), (sql: Sql) => sql.begin(async () => {})]) {
      const fake = fakeSql(() => Promise.reject(refused));
      const c = circuit();
      const sql = guarded(fake.sql, c);
      await expect(call(sql)).rejects.toBe(refused);
      expect(c.isOpen).toBe(true);
      await expect(sql.unsafe("select 1").values()).rejects.toBeInstanceOf(DatabaseDownError);
      await expect(sql.begin(async () => {})).rejects.toBeInstanceOf(DatabaseDownError);
      expect(fake.unsafe.mock.calls.length + fake.begin.mock.calls.length).toBe(1);
      c.stop();
    }
  });

  it("a query's own error does not open it", async () => {
    const fake = fakeSql(() => Promise.reject(Object.assign(new Error("duplicate key"), { code: "23505" })));
    const c = circuit();
    const sql = guarded(fake.sql, c);
    await expect(sql.unsafe("insert")).rejects.toMatchObject({ code: "23505" });
    await expect(sql.begin(async () => {})).rejects.toMatchObject({ code: "23505" });
    expect(c.isOpen).toBe(false);
  });

  it("sends each query and transaction to the pool current when it is made, and watches it while in flight", async () => {
    const first = fakeSql(async () => [["first"]]);
    const second = fakeSql(async () => [["second"]]);
    let current = first.sql;
    const w = watch();
    const track = vi.spyOn(w, "track");
    const sql = guardedSql({ pool: () => current, circuit: circuit(), watch: w });
    const made = sql.unsafe("select 1");
    expect(await sql.unsafe("select 1")).toEqual([["first"]]);
    current = second.sql;
    expect(await sql.unsafe("select 1").values()).toEqual([["second"]]);
    await sql.begin(async () => {});
    expect(await made).toEqual([["first"]]);
    expect(second.begin).toHaveBeenCalledTimes(1);
    expect(first.begin).not.toHaveBeenCalled();
    expect(sql.options).toBe(second.sql.options);
    expect(track).toHaveBeenCalledTimes(4);
  });

  it("without a watch (DATABASE_STALL_MS=0), still answers and tells the circuit", async () => {
    const { sql: pool } = fakeSql(async () => [["plain"]]);
    const c = circuit();
    const sql = guardedSql({ pool: () => pool, circuit: c, watch: null });
    expect(await sql.unsafe("select 1")).toEqual([["plain"]]);
    const down = fakeSql(async () => {
      throw Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    });
    await expect(guardedSql({ pool: () => down.sql, circuit: c, watch: null }).unsafe("select 1")).rejects.toThrow();
    expect(c.isOpen).toBe(true);
  });
});
