import "server-only";
import { sql } from "drizzle-orm";
import { log } from "@/lib/log";
import { getDb } from "./client";
import { isDatabaseUnavailable } from "./unavailable";

/**
 * Whether this process can serve requests that need the database: it opened and migrated it, and a round trip
 * answers. While the circuit is open (circuit.ts) the answer is no at once, without a round trip.
 */
export async function isDatabaseReady(): Promise<boolean> {
  try {
    const db = await getDb();
    await db.execute(sql`select 1`);
    return true;
  } catch (err) {
    // The database being away is logged by the circuit; anything else (a failed migration, a data folder held by
    // another process) is this instance's own trouble and is logged here.
    if (!isDatabaseUnavailable(err)) log().error({ msg: "readiness check failed", err });
    return false;
  }
}
