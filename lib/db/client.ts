import "server-only";
import { appendFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { env, isBuildPhase, isInMemory } from "@/lib/env";
import { log } from "@/lib/log";
import * as schema from "./schema";
import { DatabaseCircuit } from "./circuit";
import { lockDataDir } from "./data-dir-lock";
import { noteOpenFailed, registerCircuit, unregisterCircuit } from "./down";
import { guardedSql } from "./guarded-sql";
import { runMigrations } from "./migrate";
import { checkAlone, StallWatch } from "./stall-watch";
import { isDatabaseUnreachable } from "./unavailable";
import type { Db } from "./tx";

/**
 * One database per process, opened on first use (never at import, never during `next build`).
 * No DATABASE_URL → embedded PGlite in DATA_DIR; DATABASE_URL → postgres.js with a pool.
 * Next.js dev re-evaluates modules on reload, so the handle lives on globalThis.
 */
interface Handle {
  db: Db;
  engine: "pglite" | "postgres";
  close: () => Promise<void>;
}

// Postgres only (docs/api.md, "When the database is down"). A pooled connection that failed is tried again no sooner
// than this.
const BACKOFF_S = 0.05;
// While the database is unreachable the circuit asks it again this often: requests succeed again within about
// this long (plus one connection) of its return.
const PROBE_EVERY_MS = 200;
// Work in flight DATABASE_STALL_MS has the database checked on a connection of its own (stall-watch.ts), at most once
// a second; the check gives up a little after the connect timeout. A peer gone silent mid-query is noticed within
// about DATABASE_STALL_MS + the connect timeout.
const CHECK_EVERY_MS = 1_000;
const CHECK_GRACE_MS = 250;

const g = globalThis as unknown as { __shipwellDb?: Promise<Handle> };

async function open(): Promise<Handle> {
  if (isBuildPhase()) throw new Error("The database is not opened during the build.");
  const { DATABASE_URL, DATA_DIR, DATABASE_POOL_MAX, DATABASE_CONNECT_TIMEOUT_MS, DATABASE_STALL_MS } = env();
  const { DATABASE_STATEMENT_LOG } = env();
  // Benches only: one line per statement sent (its text, no parameters), written before the next one is built, so a
  // bench that sends one request at a time can count each request's statements.
  const logStatement = DATABASE_STATEMENT_LOG
    ? (text: string) => appendFileSync(DATABASE_STATEMENT_LOG, text.replace(/\s+/g, " ") + "\n")
    : undefined;
  let handle: Handle;
  if (DATABASE_URL) {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const options = {
      max: DATABASE_POOL_MAX,
      onnotice: () => {},
      // An outage is answered within a bounded time (docs/api.md, "When the database is down"): an attempt to
      // connect gives up after DATABASE_CONNECT_TIMEOUT_MS (a query queued behind others in the pool may wait for a
      // few such attempts before the circuit opens), and a connection that failed is tried again after BACKOFF_S,
      // not after postgres.js's growing backoff (up to 20 s), so the first query after the database is back connects.
      connect_timeout: DATABASE_CONNECT_TIMEOUT_MS / 1000,
      backoff: () => BACKOFF_S,
      idle_timeout: 60,
      // No catalog query for array types on each new connection: postgres.js leaves that query's failure unhandled
      // (porsager/postgres#1192, #1223), and Node ends the process on it, so a connection terminated as it opened (a
      // failover, a restart under traffic) would take every request of the process down with it
      // (test/db-new-connection.test.ts). Nothing here sends or reads a Postgres array through the driver: drizzle
      // expands a list into one parameter each and encodes array columns itself. It also saves a round trip.
      fetch_types: false,
      ...(logStatement ? { debug: (_connection: number, text: string) => logStatement(text) } : {}),
    };
    let sql = postgres(DATABASE_URL, options);
    const circuit = new DatabaseCircuit({
      probe: () => sql`select 1`,
      probeEveryMs: PROBE_EVERY_MS,
      onChange: (state) =>
        state === "open"
          ? log().error({ msg: "database unreachable; answering 503 until a probe reaches it" })
          : log().info({ msg: "database reachable again" }),
    });
    // DATABASE_STALL_MS=0: no watch, and work in flight is only the pool's business.
    const watch: StallWatch | null =
      DATABASE_STALL_MS === 0
        ? null
        : new StallWatch({
            stallMs: DATABASE_STALL_MS,
            checkEveryMs: CHECK_EVERY_MS,
            check: () =>
              checkAlone(
                () =>
                  postgres(DATABASE_URL, {
                    max: 1,
                    connect_timeout: options.connect_timeout,
                    fetch_types: false,
                    onnotice: () => {},
                  }),
                DATABASE_CONNECT_TIMEOUT_MS + CHECK_GRACE_MS,
              ),
            onUnreachable: (err) => {
              circuit.observe(err);
              // The pool's connections may be the stalled ones, and nothing would ever fail them: new work goes to a
              // new pool, and ending the old one at once fails every query it holds (CONNECTION_DESTROYED, answered
              // 503).
              const stalled = sql;
              sql = postgres(DATABASE_URL, options);
              // drizzle set its parsers and serializers (dates as text) on the first pool's options when it was given
              // it.
              Object.assign(sql.options.parsers, stalled.options.parsers);
              Object.assign(sql.options.serializers, stalled.options.serializers);
              watch?.forget();
              void stalled.end({ timeout: 0 }).catch(() => {});
              log().error({ msg: "database pool given up on: work in flight stalled and a check could not reach it" });
            },
          });
    registerCircuit(circuit);
    handle = {
      db: drizzle(guardedSql({ pool: () => sql, circuit, watch }), { schema }) as unknown as Db,
      engine: "postgres",
      close: () => {
        circuit.stop();
        watch?.stop();
        unregisterCircuit(circuit);
        return sql.end({ timeout: 5 });
      },
    };
  } else {
    const release = isInMemory() ? () => {} : lockDataDir(DATA_DIR);
    try {
      const { PGlite } = await import("@electric-sql/pglite");
      const { drizzle } = await import("drizzle-orm/pglite");
      // pg_trgm backs the shipment search index (drizzle/0005); loaded with the engine, created by the migration.
      const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
      const template = isInMemory() ? env().PGLITE_LOAD_DATA_DIR : undefined;
      const client = template
        ? new PGlite({ loadDataDir: new Blob([await readFile(template)]), extensions: { pg_trgm } })
        : new PGlite(DATA_DIR, { extensions: { pg_trgm } });
      await client.waitReady;
      handle = {
        db: drizzle(client, {
          schema,
          ...(logStatement ? { logger: { logQuery: (text: string) => logStatement(text) } } : {}),
        }) as unknown as Db,
        engine: "pglite",
        close: async () => {
          await client.close();
          release();
        },
      };
    } catch (err) {
      release();
      throw err;
    }
  }
  try {
    if (!env().SKIP_MIGRATIONS) {
      await runMigrations(
        DATABASE_URL ? { engine: "postgres", url: DATABASE_URL } : { engine: "pglite", db: handle.db },
      );
    }
  } catch (err) {
    await handle.close().catch(() => {});
    throw err;
  }
  log().info({ msg: "database ready", engine: handle.engine });
  return handle;
}

/**
 * The database, migrated. Nothing else happens here: the default organization and first key are lib/bootstrap.ts's
 * business, run by whoever starts the process (the server, the command line).
 */
export function getDb(): Promise<Db> {
  if (!g.__shipwellDb) {
    const opening = open();
    g.__shipwellDb = opening;
    // A failed open (database down at start) is not cached: the next request tries again. Meanwhile pages are
    // answered 503 at once (down.ts), as they are while the circuit of an open database is.
    opening.then(
      () => noteOpenFailed(null),
      (err: unknown) => {
        if (g.__shipwellDb === opening) g.__shipwellDb = undefined;
        if (isDatabaseUnreachable(err)) noteOpenFailed(Date.now());
      },
    );
  }
  return g.__shipwellDb.then((h) => h.db);
}

export async function closeDb(): Promise<void> {
  const pending = g.__shipwellDb;
  g.__shipwellDb = undefined;
  if (pending) await (await pending.catch(() => null))?.close();
}
