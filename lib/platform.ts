import { getDb, onDatabaseReady } from "@/lib/db/client";
import { bootstrap } from "@/lib/auth/bootstrap";

onDatabaseReady("bootstrap", bootstrap);

/** The database, migrated and bootstrapped. Every entry point (routes, CLI, jobs) goes through here. */
export function getReadyDb() {
  return getDb();
}
