import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

/**
 * On PGlite, one database is created and migrated per run and dumped; each test file's in-memory database starts
 * from that dump (lib/db/client.ts, PGLITE_LOAD_DATA_DIR) instead of running initdb and every migration again.
 * On Postgres the files share the database they are given, as before.
 */
export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL || process.env.PGLITE_LOAD_DATA_DIR) return;
  const { PGlite } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const client = new PGlite("memory://", { extensions: { pg_trgm } });
  await migrate(drizzle(client), { migrationsFolder: join(process.cwd(), "drizzle") });
  const dump = await client.dumpDataDir("none");
  await client.close();
  const dir = mkdtempSync(join(tmpdir(), "shipwell-test-"));
  const file = join(dir, "migrated.tar");
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide("pgliteDataDir", file);
  return () => rmSync(dir, { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    pgliteDataDir?: string;
  }
}
