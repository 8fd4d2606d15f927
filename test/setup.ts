import { inject } from "vitest";

// Shared by every vitest worker. Logs stay quiet unless a developer asks for them.
process.env.LOG_LEVEL ??= "silent";
// Without DATABASE_URL each test file gets its own in-memory PGlite, a copy of the one migrated database of the run
// (test/global-setup.ts); with it, all files share that Postgres database (migrations take an advisory lock) and
// stay apart because every test makes its own organization.
if (!process.env.DATABASE_URL) {
  process.env.DATA_DIR ??= "memory://";
  const migrated = inject("pgliteDataDir");
  if (migrated) process.env.PGLITE_LOAD_DATA_DIR ??= migrated;
}
process.env.ENCRYPTION_KEY ??= "a".repeat(64);
