import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, count, desc, eq, isNull, lt, or } from "drizzle-orm";
import { recordAudit } from "@/lib/audit/record";
import { withTransaction, type DomainContext, type SystemContext } from "@/lib/context";
import { apiKeys, organizations } from "@/lib/db/schema";
import { newId } from "@/lib/db/ids";
import type { DbOrTx } from "@/lib/db/tx";
import { NotFoundError } from "@/lib/errors";
import { ShortCache } from "@/lib/short-cache";
import { formatTimestamp } from "@/lib/timestamp";
import { CURRENT_API_VERSION, type ApiKey, type ApiKeyCreate, type ApiVersion } from "@/lib/schemas/api-key";

/** The command line and start-up act as the service; the API acts for the caller's organization, named explicitly. */
type KeysContext = SystemContext | DomainContext;

/** Keys look like `shw_` + 43 base64url chars (32 random bytes); only their SHA-256 is stored. */
const KEY_PREFIX = "shw_";

function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(32).toString("base64url");
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

function displayPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX.length + 6);
}

export type KeySource = (typeof apiKeys.$inferInsert)["source"];

export interface CreatedKey {
  id: string;
  orgId: string;
  name: string;
  /** The only time the key is visible. */
  key: string;
  apiKey: ApiKey;
}

export async function createApiKey({
  ctx,
  ...input
}: {
  ctx: KeysContext;
  orgId: string;
  name: string;
  source: KeySource;
  apiVersion?: ApiVersion;
}): Promise<CreatedKey> {
  const { db } = ctx;
  const org = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, input.orgId));
  if (org.length === 0) throw new NotFoundError(`Organization ${input.orgId} does not exist.`);
  const key = generateApiKey();
  const row = await withTransaction(ctx, async (tx) => {
    const [inserted] = await tx.db
      .insert(apiKeys)
      .values({
        id: newId("key"),
        orgId: input.orgId,
        name: input.name,
        keyHash: hashApiKey(key),
        keyPrefix: displayPrefix(key),
        source: input.source,
        apiVersion: input.apiVersion ?? CURRENT_API_VERSION,
      })
      .returning();
    await recordAudit(
      { ...tx, org: { id: input.orgId } },
      {
        action: "api_key.created",
        resourceId: inserted!.id,
        summary: { source: input.source, api_version: inserted!.apiVersion },
      },
    );
    return inserted;
  });
  return { id: row!.id, orgId: input.orgId, name: input.name, key, apiKey: presentApiKey(row!) };
}

function presentApiKey(row: typeof apiKeys.$inferSelect): ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.keyPrefix,
    api_version: row.apiVersion as ApiVersion,
    created_at: formatTimestamp(row.createdAt),
    last_used_at: row.lastUsedAt ? formatTimestamp(row.lastUsedAt) : null,
    revoked_at: row.revokedAt ? formatTimestamp(row.revokedAt) : null,
  };
}

/**
 * Registers a key the operator chose (BOOTSTRAP_API_KEY) for an organization, once: a restart, or another instance
 * starting at the same moment, finds it and changes nothing. A revoked key stays revoked.
 */
export async function ensureApiKey({
  ctx,
  orgId,
  name,
  key,
}: {
  ctx: SystemContext;
  orgId: string;
  name: string;
  key: string;
}): Promise<{ id: string; created: boolean; revoked: boolean }> {
  const inserted = await withTransaction(ctx, async (tx) => {
    const added = await tx.db
      .insert(apiKeys)
      .values({
        id: newId("key"),
        orgId,
        name,
        keyHash: hashApiKey(key),
        keyPrefix: displayPrefix(key),
        source: "bootstrap",
      })
      .onConflictDoNothing()
      .returning({ id: apiKeys.id });
    if (added[0]) {
      await recordAudit(
        { ...tx, org: { id: orgId } },
        {
          action: "api_key.created",
          resourceId: added[0].id,
          summary: { source: "bootstrap" },
        },
      );
    }
    return added;
  });
  if (inserted[0]) return { id: inserted[0].id, created: true, revoked: false };
  const [row] = await ctx.db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.keyHash, hashApiKey(key)));
  return { id: row!.id, created: false, revoked: row!.revokedAt !== null };
}

export async function listApiKeys({ ctx, orgId }: { ctx: SystemContext; orgId?: string }) {
  return ctx.db
    .select({
      id: apiKeys.id,
      orgId: apiKeys.orgId,
      name: apiKeys.name,
      prefix: apiKeys.keyPrefix,
      source: apiKeys.source,
      apiVersion: apiKeys.apiVersion,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
      revokedAt: apiKeys.revokedAt,
    })
    .from(apiKeys)
    .where(orgId ? eq(apiKeys.orgId, orgId) : undefined)
    .orderBy(desc(apiKeys.createdAt));
}

/** POST /v1/api_keys: a key for the caller's organization. */
export async function createOrgApiKey({ ctx, input }: { ctx: DomainContext; input: ApiKeyCreate }) {
  const created = await createApiKey({
    ctx,
    orgId: ctx.org.id,
    name: input.name,
    source: "api",
    apiVersion: input.api_version,
  });
  return { ...created.apiKey, key: created.key };
}

/** DELETE /v1/api_keys/{id}: only a key of the caller's organization; another's is not found. */
export async function revokeOrgApiKey({ ctx, id }: { ctx: DomainContext; id: string }): Promise<ApiKey> {
  return (await revokeApiKey({ ctx, keyId: id, orgId: ctx.org.id })).apiKey;
}

/** GET /v1/api_keys: the caller organization's keys, newest first (never the keys themselves). */
export async function pageOfApiKeys({ ctx, limit, offset }: { ctx: DomainContext; limit: number; offset: number }) {
  const where = eq(apiKeys.orgId, ctx.org.id);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(apiKeys)
      .where(where)
      .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
      .limit(limit)
      .offset(offset),
    ctx.db.select({ n: count() }).from(apiKeys).where(where),
  ]);
  return { count: total?.n ?? 0, results: rows.map(presentApiKey) };
}

/** Revoking is permanent; revoking a revoked key is a no-op that still answers with the key. */
export async function revokeApiKey({ ctx, keyId, orgId }: { ctx: KeysContext; keyId: string; orgId?: string }) {
  const { db } = ctx;
  const where = orgId ? and(eq(apiKeys.id, keyId), eq(apiKeys.orgId, orgId)) : eq(apiKeys.id, keyId);
  const existing = await db.select().from(apiKeys).where(where);
  const row = existing[0];
  if (!row) throw new NotFoundError(`API key ${keyId} does not exist.`);
  if (!row.revokedAt) {
    await withTransaction(ctx, async (tx) => {
      const revoked = await tx.db
        .update(apiKeys)
        .set({ revokedAt: new Date() })
        .where(and(where, isNull(apiKeys.revokedAt)))
        .returning({ id: apiKeys.id });
      // Revoked by a concurrent call meanwhile: that one is recorded.
      if (revoked.length > 0) {
        await recordAudit({ ...tx, org: { id: row.orgId } }, { action: "api_key.revoked", resourceId: row.id });
      }
    });
  }
  forgetKey(row.id);
  return {
    id: row.id,
    orgId: row.orgId,
    name: row.name,
    apiKey: presentApiKey({ ...row, revokedAt: row.revokedAt ?? new Date() }),
  };
}

// Writing last_used_at on every request would turn every read into a write; a minute's precision is plenty.
const LAST_USED_PRECISION_MS = 60_000;

export interface Authenticated {
  keyId: string;
  orgId: string;
  /** The key's name, for the audit log. */
  name: string;
  /** The key's API version (lib/versions.ts); a request may override it. */
  apiVersion: string;
}

/**
 * Recent lookups by key hash, so a burst of requests costs one query rather than one each. Revoking in this
 * process takes effect at once; a revocation made by another process (another instance, the CLI) is seen within
 * AUTH_CACHE_TTL_MS. Unknown keys are remembered too (bounded), so guessing does not turn into database load.
 */
const AUTH_CACHE_TTL_MS = 5_000;
const AUTH_CACHE_MAX = 10_000;

interface CachedAuth {
  value: Authenticated | null;
  lastUsedAt: number;
}

/**
 * Key hashes found valid in the last RECENTLY_VALID_MS, by key id. Not an authentication (every use is still looked
 * up or cached as above): it tells a key clients are using from a guess, so a caller can refuse lookups of unknown
 * keys (the per-address limit, lib/api/authenticate.ts) without refusing theirs.
 */
const RECENTLY_VALID_MS = 10 * 60_000;

// On globalThis: Next.js dev re-evaluates modules on reload, and a revocation must reach the cache requests use.
const g = globalThis as unknown as {
  __shipwellAuthCache?: ShortCache<CachedAuth>;
  __shipwellRecentlyValid?: ShortCache<string>;
};
const authCache = (g.__shipwellAuthCache ??= new ShortCache<CachedAuth>(AUTH_CACHE_TTL_MS, AUTH_CACHE_MAX));
const recentlyValid = (g.__shipwellRecentlyValid ??= new ShortCache<string>(RECENTLY_VALID_MS, AUTH_CACHE_MAX));

export function clearAuthCache(): void {
  authCache.clear();
}

function forgetKey(keyId: string): void {
  authCache.deleteWhere((entry) => entry.value?.keyId === keyId);
  recentlyValid.deleteWhere((id) => id === keyId);
}

async function lookup(db: DbOrTx, hash: string) {
  const [row] = await db
    .select({
      keyId: apiKeys.id,
      orgId: apiKeys.orgId,
      name: apiKeys.name,
      apiVersion: apiKeys.apiVersion,
      revokedAt: apiKeys.revokedAt,
      lastUsedAt: apiKeys.lastUsedAt,
    })
    .from(apiKeys)
    .where(eq(apiKeys.keyHash, hash));
  return row;
}

/**
 * The key's organization, or null. `beforeUnknownLookup` runs just before the database is asked about a key that is
 * neither cached nor recently valid (a guess, or a new client); throwing there refuses the request with no query.
 */
export async function authenticateApiKey(
  db: DbOrTx,
  key: string,
  opts: { beforeUnknownLookup?: () => unknown } = {},
): Promise<Authenticated | null> {
  if (!key.startsWith(KEY_PREFIX) && key.length < 20) return null;
  const hash = hashApiKey(key);
  const now = Date.now();
  let entry = authCache.get(db, hash);
  if (!entry) {
    if (!recentlyValid.get(db, hash)) await opts.beforeUnknownLookup?.();
    const row = await lookup(db, hash);
    const value =
      row && !row.revokedAt ? { keyId: row.keyId, orgId: row.orgId, name: row.name, apiVersion: row.apiVersion } : null;
    entry = { value, lastUsedAt: row?.lastUsedAt?.getTime() ?? 0 };
    authCache.set(db, hash, entry);
    if (value) recentlyValid.set(db, hash, value.keyId);
  }
  if (!entry.value) return null;
  if (now - entry.lastUsedAt > LAST_USED_PRECISION_MS) {
    entry.lastUsedAt = now;
    const stale = new Date(now - LAST_USED_PRECISION_MS);
    await db
      .update(apiKeys)
      .set({ lastUsedAt: new Date(now) })
      .where(and(eq(apiKeys.id, entry.value.keyId), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, stale))));
  }
  return entry.value;
}
