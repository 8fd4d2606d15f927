import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import type * as schema from "./schema";

type Schema = typeof schema;

/** One type for both engines: postgres.js and PGlite databases are both PgDatabase underneath. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Verbs take either, so a caller can compose them inside its own transaction. */
export type DbOrTx = Db | Tx;

/**
 * Statements of one transaction that need nothing of one another's answers, sent together: the transaction's one
 * connection runs them in the order given, without waiting for each answer before sending the next (one round trip,
 * not one each). Like Promise.all, but a failure is thrown only once every one of them has settled, so no statement
 * of the group is still on its way when the transaction rolls back (one sent after the rollback would run outside it).
 */
export async function inOneTrip<T extends readonly unknown[] | []>(
  statements: T,
): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const settled: PromiseSettledResult<unknown>[] = await Promise.allSettled(statements as readonly unknown[]);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (failed) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as {
    -readonly [K in keyof T]: Awaited<T[K]>;
  };
}
