import type { Sql } from "postgres";
import type { DatabaseCircuit } from "./circuit";

/**
 * The postgres.js client drizzle is given, behind the circuit: the two calls drizzle makes on the pool, `unsafe`
 * (every query outside a transaction: awaited, or `.values()` then awaited) and `begin` (a transaction; the queries
 * inside go to the transaction's own client), are refused at once while the circuit is open, and their failures
 * tell the circuit. Everything else passes through untouched.
 */
export function guardedSql(sql: Sql, circuit: DatabaseCircuit): Sql {
  const observed = <T>(promise: PromiseLike<T>): Promise<T> =>
    Promise.resolve(promise).catch((err: unknown) => {
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
    const query = refused ? null : sql.unsafe(...args);
    // postgres.js runs a query when it is first awaited, so nothing is attached to it here: `.values()` must still
    // reach it before it runs. The answer is a thenable over the same query.
    const answer = {
      values() {
        query?.values();
        return answer;
      },
      then<A, B>(
        onFulfilled?: (rows: unknown) => A | PromiseLike<A>,
        onRejected?: (err: unknown) => B | PromiseLike<B>,
      ) {
        return (query ? observed(query) : Promise.reject(refused)).then(onFulfilled, onRejected);
      },
    };
    return answer;
  }

  function begin(...args: unknown[]) {
    const refused = refusal();
    if (refused) return Promise.reject(refused);
    return observed((sql.begin as (...a: unknown[]) => Promise<unknown>)(...args));
  }

  return new Proxy(sql, {
    get(target, property, receiver) {
      if (property === "unsafe") return unsafe;
      if (property === "begin") return begin;
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}
