import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, inject } from "vitest";
import { databaseUrl } from "./global-setup";

// Shared by every vitest worker, run before each test file. Logs stay quiet unless a developer asks for them.
process.env.LOG_LEVEL ??= "silent";
process.env.ENCRYPTION_KEY ??= "a".repeat(64);
// The service gives up a connection attempt after 500 ms and then answers 503 until a probe reaches the database
// (docs/api.md, "When the database is down"). With every core busy running test files, a connection to a database
// that is up can take longer than that, and a test about something else would meet a 503. The files about outages
// set the service's default back (test/db-outage.test.ts); child processes inherit this with the rest of the env.
process.env.DATABASE_CONNECT_TIMEOUT_MS ??= "5000";
// The watch over work in flight (lib/db/stall-watch.ts) runs on real time, and the files that fake setTimeout move
// the driver's timers far ahead of it: a check's connection attempt then "times out" at once, and the pool is given
// up on under a test about something else. It is off here; the file about outages turns it back on.
process.env.DATABASE_STALL_MS ??= "0";

// Each test file gets a database of its own, a copy of the one migrated database of the run (test/global-setup.ts),
// so the file skips the migrations. A file that opens a fresh database instead (a folder on disk) deletes
// SKIP_MIGRATIONS. Child processes a file starts inherit DATABASE_URL and SKIP_MIGRATIONS with the rest of its env.
const postgresTemplate = inject("postgresTemplate");
if (postgresTemplate) {
  const { url, template, prefix } = postgresTemplate;
  const name = `${prefix}${randomBytes(6).toString("hex")}`;
  process.env.DATABASE_URL = databaseUrl(url, name);
  process.env.SKIP_MIGRATIONS = "1";
  // The copy is made while the test file's modules load; nothing touches the database before the first hook.
  const sql = (await import("postgres")).default(url, { max: 1, onnotice: () => {} });
  const created = sql.unsafe(`create database "${name}" template "${template}"`);
  created.catch(() => {});
  beforeAll(async () => {
    await created;
  });
  // The run's global setup drops the finished copies in batches (a DROP DATABASE waits for a checkpoint).
  afterAll(async () => {
    await sql.unsafe(`comment on database "${name}" is 'finished'`).catch(() => {});
    await sql.end();
  });
} else if (!process.env.DATABASE_URL) {
  process.env.DATA_DIR ??= "memory://";
  const migrated = inject("pgliteDataDir");
  if (migrated) {
    process.env.PGLITE_LOAD_DATA_DIR ??= migrated;
    process.env.SKIP_MIGRATIONS ??= "1";
  }
}
