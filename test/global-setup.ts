import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

/**
 * The database is migrated once per run and each test file starts from a copy of it (test/setup.ts):
 * - on PGlite, one in-memory database is migrated and dumped; each file's in-memory database loads that dump
 *   (lib/db/client.ts, PGLITE_LOAD_DATA_DIR) instead of running initdb and every migration again;
 * - on Postgres (DATABASE_URL), a template database is made next to the given one and migrated; each file gets its own
 *   `CREATE DATABASE … TEMPLATE` copy. Every database of the run is named `<run prefix>…` and dropped: a file's copy
 *   soon after the file ends, the rest at the end of the run, after Ctrl-C by a detached `scripts/pg-database.mjs`,
 *   and, when the runner was killed outright, by the next run on this machine.
 */
export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) return setupPostgres(project, process.env.DATABASE_URL);
  if (process.env.PGLITE_LOAD_DATA_DIR) return;
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

// Databases of test runs on this machine: `shipwell_test_<host>_<pid>_<random>_…`. The host and the runner's process
// id say whose a leftover is, so a run only ever drops the leftovers of runners of this machine that are gone (other
// runs may share the server at the same moment).
const HOST = Buffer.from(hostname()).toString("hex").slice(-6).padStart(6, "0");
const OURS = `shipwell_test_${HOST}_`;
// How often the copies of finished files are dropped: each DROP DATABASE forces a checkpoint, so they go in batches.
const REAP_EVERY_MS = 5_000;

async function setupPostgres(project: TestProject, url: string) {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const { migrate } = await import("drizzle-orm/postgres-js/migrator");
  const prefix = `${OURS}${process.pid}_${randomBytes(2).toString("hex")}_`;
  const template = `${prefix}template`;
  // The given database is only the way in: the template must have no other connection while it is copied.
  const admin = postgres(url, { max: 4, onnotice: () => {} });
  const drop = (names: string[]) =>
    Promise.all(names.map((name) => admin.unsafe(`drop database if exists "${name}" with (force)`)));
  const named = async (start: string, where: "finished" | "all") => {
    const rows = await admin<{ datname: string }[]>`
      select d.datname from pg_database d
      left join pg_shdescription c on c.objoid = d.oid and c.classoid = 'pg_database'::regclass
      where starts_with(d.datname, ${start}) and (${where} = 'all' or c.description = 'finished')`;
    return rows.map((r) => r.datname);
  };

  const leftovers = (await named(OURS, "all")).filter((name) => !alive(Number(name.slice(OURS.length).split("_")[0])));
  await drop(leftovers);

  await admin.unsafe(`create database "${template}"`);
  const migrating = postgres(databaseUrl(url, template), { max: 1, onnotice: () => {} });
  try {
    await migrate(drizzle(migrating), { migrationsFolder: join(process.cwd(), "drizzle") });
  } finally {
    await migrating.end();
  }

  // test/setup.ts marks a file's copy "finished" when the file is done; they are dropped here, off the workers' path.
  let reaping: Promise<unknown> = Promise.resolve();
  const reaper = setInterval(() => {
    reaping = reaping.then(() => named(prefix, "finished").then(drop)).catch(() => {});
  }, REAP_EVERY_MS);
  reaper.unref();
  // Ctrl-C: vitest exits at once, without teardown; a detached process drops this run's databases.
  const interrupted = () => {
    spawn(process.execPath, ["scripts/pg-database.mjs", "drop-prefix", url, prefix], {
      detached: true,
      stdio: "ignore",
    }).unref();
  };
  process.once("SIGINT", interrupted);
  process.once("SIGTERM", interrupted);

  project.provide("postgresTemplate", { url, template, prefix });
  return async () => {
    clearInterval(reaper);
    process.off("SIGINT", interrupted);
    process.off("SIGTERM", interrupted);
    await reaping;
    try {
      await drop(await named(prefix, "all"));
    } finally {
      await admin.end();
    }
  };
}

/** The same server, user and options, another database. */
export function databaseUrl(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, someone else's.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

declare module "vitest" {
  export interface ProvidedContext {
    pgliteDataDir?: string;
    postgresTemplate?: { url: string; template: string; prefix: string };
  }
}
