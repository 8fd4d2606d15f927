import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, inject, it } from "vitest";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { resetEnvCache } from "@/lib/env";
import { closeDb, getDb } from "./client";
import type { Db } from "./tx";

// Which database the process opens is decided by DATABASE_URL; these look at the driver really behind the handle
// and where its data goes, not at the variables. On a Postgres run DATABASE_URL is this file's own copy.
const suite = { ...process.env };
const folders: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), "shipwell-client-"));
  folders.push(dir);
  return dir;
};

afterEach(async () => {
  await closeDb();
  for (const name of ["DATABASE_URL", "DATA_DIR", "DATABASE_POOL_MAX", "SKIP_MIGRATIONS", "PGLITE_LOAD_DATA_DIR"]) {
    if (suite[name] === undefined) delete process.env[name];
    else process.env[name] = suite[name];
  }
  resetEnvCache();
});
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** drizzle keeps the driver's client on the handle. */
const clientOf = (db: Db) => (db as unknown as { $client: unknown }).$client;

function use(vars: Record<string, string | undefined>) {
  for (const [name, value] of Object.entries(vars)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnvCache();
}

describe("the database a process opens", () => {
  it("is PGlite keeping its files in DATA_DIR when DATABASE_URL is unset", { timeout: 120_000 }, async () => {
    const dir = folder();
    // The run's migrated cluster, unpacked, spares an initdb (seconds); without it (a Postgres run) the folder starts
    // empty and PGlite makes a cluster there. Only the engine and its folder matter here, not the migrations.
    const migrated = inject("pgliteDataDir");
    if (migrated) execFileSync("tar", ["-xf", migrated, "-C", dir]);
    use({ DATABASE_URL: undefined, DATA_DIR: dir, SKIP_MIGRATIONS: "1", PGLITE_LOAD_DATA_DIR: undefined });
    const db = await getDb();
    expect(clientOf(db)).toBeInstanceOf(PGlite);
    await db.execute(sql`create table kept (id int)`);
    const { rows } = (await db.execute(sql`select pg_relation_filepath('kept') as path`)) as unknown as {
      rows: { path: string }[];
    };
    await closeDb();
    expect(existsSync(join(dir, rows[0]!.path))).toBe(true);
  });

  it("is postgres.js on DATABASE_URL when it is set, with DATABASE_POOL_MAX connections, never PGlite", async () => {
    const dir = folder();
    // Nothing listens on port 1: a handle that answered would not be the one DATABASE_URL names.
    use({
      DATABASE_URL: "postgres://postgres@127.0.0.1:1/nowhere",
      DATA_DIR: dir,
      DATABASE_POOL_MAX: "3",
      SKIP_MIGRATIONS: "1",
    });
    const db = await getDb();
    const client = clientOf(db) as { options: { host: string[]; port: number[]; database: string; max: number } };
    expect(client).not.toBeInstanceOf(PGlite);
    expect(client.options).toMatchObject({ host: ["127.0.0.1"], port: [1], database: "nowhere", max: 3 });
    await expect(db.execute(sql`select 1`)).rejects.toMatchObject({ cause: { code: "ECONNREFUSED" } });
    expect(readdirSync(dir)).toEqual([]);
  });

  it.skipIf(!suite.DATABASE_URL)("is the Postgres database DATABASE_URL names (Postgres run)", async () => {
    use({ DATA_DIR: folder() });
    const rows = (await (await getDb()).execute(sql`select current_database() as name`)) as unknown as {
      name: string;
    }[];
    expect(rows[0]!.name).toBe(new URL(suite.DATABASE_URL!).pathname.slice(1));
  });
});
