import "server-only";
import { sql } from "drizzle-orm";
import { log } from "@/lib/log";
import type { Db } from "./tx";
import { join } from "node:path";

function migrationsFolder(): string {
  return join(process.cwd(), "drizzle");
}

// Any constant works; it only has to be the same in every instance of this service.
const MIGRATION_LOCK = 72_410_955;

/**
 * Applies drizzle-kit's migrations. On Postgres they run on one dedicated connection holding a session advisory
 * lock, so instances that start together take turns: the first migrates, the others wait and find nothing to do.
 */
export async function runMigrations(target: { engine: "pglite"; db: Db } | { engine: "postgres"; url: string }) {
  const started = Date.now();
  if (target.engine === "pglite") {
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    await migrate(target.db as never, { migrationsFolder: migrationsFolder() });
  } else {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const { migrate } = await import("drizzle-orm/postgres-js/migrator");
    const client = postgres(target.url, { max: 1, onnotice: () => {}, connect_timeout: 10 });
    try {
      const db = drizzle(client);
      await db.execute(sql`select pg_advisory_lock(${MIGRATION_LOCK})`);
      try {
        await migrate(db, { migrationsFolder: migrationsFolder() });
      } finally {
        // Closing the connection releases the lock anyway; never let the unlock hide the migration's own error.
        await db.execute(sql`select pg_advisory_unlock(${MIGRATION_LOCK})`).catch(() => {});
      }
    } finally {
      await client.end({ timeout: 5 });
    }
  }
  log().debug({ msg: "migrations applied", engine: target.engine, duration_ms: Date.now() - started });
}
