import "server-only";
import { readFile } from "node:fs/promises";
import { env, isBuildPhase, isInMemory } from "@/lib/env";
import { log } from "@/lib/log";
import * as schema from "./schema";
import { lockDataDir } from "./data-dir-lock";
import { runMigrations } from "./migrate";
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

const g = globalThis as unknown as { __shipwellDb?: Promise<Handle> };

async function open(): Promise<Handle> {
  if (isBuildPhase()) throw new Error("The database is not opened during the build.");
  const { DATABASE_URL, DATA_DIR, DATABASE_POOL_MAX } = env();
  let handle: Handle;
  if (DATABASE_URL) {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const sql = postgres(DATABASE_URL, {
      max: DATABASE_POOL_MAX,
      onnotice: () => {},
      connect_timeout: 10,
      idle_timeout: 60,
    });
    handle = {
      db: drizzle(sql, { schema }) as unknown as Db,
      engine: "postgres",
      close: () => sql.end({ timeout: 5 }),
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
        db: drizzle(client, { schema }) as unknown as Db,
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
    // A failed open (database down at start) is not cached: the next request tries again.
    opening.catch(() => {
      if (g.__shipwellDb === opening) g.__shipwellDb = undefined;
    });
  }
  return g.__shipwellDb.then((h) => h.db);
}

export async function closeDb(): Promise<void> {
  const pending = g.__shipwellDb;
  g.__shipwellDb = undefined;
  if (pending) await (await pending.catch(() => null))?.close();
}
