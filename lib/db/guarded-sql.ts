import type { Sql } from "postgres";
import type { DatabaseCircuit } from "./circuit";
import type { StallWatch } from "./stall-watch";

export interface GuardedSqlOptions {
  /** The pool new work goes to: client.ts replaces it when its connections are given up on (stall-watch.ts). */
  pool: () => Sql;
  circuit: DatabaseCircuit;
  /** Sees the work in flight; null when DATABASE_STALL_MS turns the watch off. */
  watch: StallWatch | null;
}

/**
 * The postgres.js client drizzle is given, behind the circuit: the two calls drizzle makes on the pool, `unsafe`
 * (every query outside a transaction: awaited, or `.values()` then awaited) and `begin` (a transaction; the queries
 * inside go to the transaction's own client), are refused at once while the circuit is open, their failures tell the
 * circuit, and the watch sees them in flight. Each goes to the pool current when it is made; everything else passes
 * through to the current pool untouched.
 */
export function guardedSql({ pool, circuit, watch }: GuardedSqlOptions): Sql {
  const observed = <T>(promise: PromiseLike<T>): Promise<T> =>
    (watch ? watch.track(promise) : Promise.resolve(promise)).catch((err: unknown) => {
      circuit.observe(err);
      throw err;
    });

  // Like postgres.js, never a synchronous throw: a refusal is a rejected answer.
  const refusal = (): Error | null => {
    try {
      circuit.check();
      return null;
    } catch (err) {
      return err as Error;
    }
  };

  function unsafe(...args: Parameters<Sql["unsafe"]>) {
    const refused = refusal();
    const query = refused ? null : pool().unsafe(...args);
    // postgres.js runs a query when it is first awaited, so nothing is attached to it here: `.values()` must still
    // reach it before it runs. The answer is a thenable over the same query, watched from when it runs.
    let running: Promise<unknown> | null = null;
    const answer = {
      values() {
        query?.values();
        return answer;
      },
      then<A, B>(
        onFulfilled?: (rows: unknown) => A | PromiseLike<A>,
        onRejected?: (err: unknown) => B | PromiseLike<B>,
      ) {
        running ??= query ? observed(query) : Promise.reject(refused);
        return running.then(onFulfilled, onRejected);
      },
    };
    return answer;
  }

  function begin(...args: unknown[]) {
    const refused = refusal();
    if (refused) return Promise.reject(refused);
    return observed((pool().begin as (...a: unknown[]) => Promise<unknown>)(...args));
  }

  return new Proxy(pool(), {
    get(_target, property) {
      if (property === "unsafe") return unsafe;
      if (property === "begin") return begin;
      const current = pool();
      return Reflect.get(current, property, current) as unknown;
    },
    apply(_target, thisArg, args) {
      return Reflect.apply(pool(), thisArg, args) as unknown;
    },
  });
}
