import "server-only";
import { asc, eq } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import { carrierConnections } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/tx";
import { ShortCache } from "@/lib/short-cache";
import type { ConnectionRow } from "./present";

/**
 * An organization's carrier connections, oldest first, remembered for a few seconds: every rate, label and tracking
 * request needs them, and they change rarely. Every write in lib/connections forgets the organization's entry, so
 * this process sees a change at once; another instance sees it within CONNECTION_CACHE_TTL_MS (docs/api.md,
 * "Carrier connections"). Inside a transaction the table is read directly, so a verb sees its own writes.
 */
const CONNECTION_CACHE_TTL_MS = 5_000;
const CONNECTION_CACHE_MAX = 10_000;

const g = globalThis as unknown as { __shipwellConnectionCache?: ShortCache<Promise<ConnectionRow[]>> };
const cache = (g.__shipwellConnectionCache ??= new ShortCache(CONNECTION_CACHE_TTL_MS, CONNECTION_CACHE_MAX));

// Async on purpose: a drizzle query is a thenable that runs again each time it is awaited; this runs it once.
async function read(db: DbOrTx, orgId: string): Promise<ConnectionRow[]> {
  return db
    .select()
    .from(carrierConnections)
    .where(eq(carrierConnections.orgId, orgId))
    .orderBy(asc(carrierConnections.createdAt), asc(carrierConnections.id));
}

export function orgConnections(db: DbOrTx, orgId: string): Promise<ConnectionRow[]> {
  if (db instanceof PgTransaction) return read(db, orgId);
  const cached = cache.get(db, orgId);
  if (cached) return cached;
  // Concurrent requests share one read; a failed read is not remembered.
  const loading = read(db, orgId);
  cache.set(db, orgId, loading);
  loading.catch(() => {
    if (cache.get(db, orgId) === loading) cache.delete(orgId);
  });
  return loading;
}

/** After a write to an organization's connections: once it is done, and again after its transaction commits. */
export function forgetOrgConnections(orgId: string): void {
  cache.delete(orgId);
}
