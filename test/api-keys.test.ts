import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { POST as createKeyRoute } from "@/app/v1/api_keys/route";
import { DELETE as revokeKeyRoute } from "@/app/v1/api_keys/[id]/route";
import {
  authenticateApiKey,
  clearAuthCache,
  createApiKey,
  ensureApiKey,
  listApiKeys,
  pageOfApiKeys,
  revokeApiKey,
} from "@/lib/auth/api-keys";
import { getDb } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema";
import type { Db } from "@/lib/db/tx";
import { NotFoundError } from "@/lib/errors";
import { CURRENT_API_VERSION } from "@/lib/schemas/api-key";
import { formatTimestamp } from "@/lib/timestamp";
import { call, makeOrg, orgCtx, systemCtx, writesWaiting } from "./helpers";

// The lookup cache's lifetime (5 s), how long a key counts as "recently valid" (10 min) and the precision of
// last_used_at (1 min) are docs/api.md's promises; time is moved with a fake Date, never waited for.
const CACHE_MS = 5_000;
const RECENT_MS = 10 * 60_000;
const LAST_USED_MS = 60_000;

let t0 = 0;
const at = (offset: number) => vi.setSystemTime(t0 + offset);
beforeEach(() => {
  clearAuthCache();
  vi.useFakeTimers({ toFake: ["Date"] });
  t0 = Date.now();
});
afterEach(() => vi.useRealTimers());

/** Authenticates `key` on `db`, telling whether the key counted as unknown (looked up without being recently valid). */
async function auth(db: Db, key: string) {
  let unknown = false;
  const found = await authenticateApiKey(db, key, { beforeUnknownLookup: () => (unknown = true) });
  return { found, unknown };
}

const lastUsed = async (keyId: string) =>
  (await (await getDb()).select({ at: apiKeys.lastUsedAt }).from(apiKeys).where(eq(apiKeys.id, keyId)))[0]!.at;

describe("the API-key lookup cache", () => {
  it("answers from memory for 5 seconds, then sees a revocation made by another process", async () => {
    const { key, keyId, orgId } = await makeOrg();
    const db = await getDb();
    expect((await auth(db, key)).found).toMatchObject({ keyId, orgId, apiVersion: CURRENT_API_VERSION });
    await db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, keyId)); // the other process
    at(CACHE_MS - 1);
    expect((await auth(db, key)).found).toMatchObject({ keyId });
    at(CACHE_MS);
    expect((await auth(db, key)).found).toBeNull();
  });

  it("remembers an unknown key too, so repeating a guess asks the database once per 5 seconds", async () => {
    const db = await getDb();
    const select = vi.spyOn(db, "select");
    const guess = "shw_" + "g".repeat(43);
    expect(await auth(db, guess)).toEqual({ found: null, unknown: true });
    at(CACHE_MS - 1);
    expect(await auth(db, guess)).toEqual({ found: null, unknown: false });
    expect(select).toHaveBeenCalledTimes(1);
    at(CACHE_MS);
    expect(await auth(db, guess)).toEqual({ found: null, unknown: true });
    expect(select).toHaveBeenCalledTimes(2);
    select.mockRestore();
  });

  it("belongs to one database handle: another instance's handle looks the key up itself", async () => {
    const { key, keyId } = await makeOrg();
    const db = await getDb();
    const other = Object.create(db) as Db; // same database, another handle
    await auth(db, key);
    await db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, keyId));
    expect((await auth(db, key)).found).not.toBeNull();
    expect((await auth(other, key)).found).toBeNull();
  });

  it("tells a key clients used in the last 10 minutes from a guess, after its cache entry is gone", async () => {
    const db = await getDb();
    const a = await makeOrg();
    const b = await makeOrg();
    expect((await auth(db, a.key)).unknown).toBe(true); // a new client: counted until it proves valid
    expect((await auth(db, b.key)).unknown).toBe(true);
    at(RECENT_MS - 1);
    expect(await auth(db, a.key)).toMatchObject({ found: { keyId: a.keyId }, unknown: false });
    at(RECENT_MS);
    expect(await auth(db, b.key)).toMatchObject({ found: { keyId: b.keyId }, unknown: true });
  });

  it("forgets a key revoked in this process at once, and no other key", async () => {
    const db = await getDb();
    const a = await makeOrg();
    const b = await makeOrg();
    const guess = "shw_" + "h".repeat(43);
    for (const k of [a.key, b.key, guess]) await auth(db, k); // an unknown key's entry holds no key id
    const select = vi.spyOn(db, "select");
    await revokeApiKey({ ctx: await systemCtx(), keyId: a.keyId });
    select.mockClear();
    expect(await auth(db, b.key)).toMatchObject({ found: { keyId: b.keyId }, unknown: false });
    expect(await auth(db, guess)).toEqual({ found: null, unknown: false });
    expect(select).not.toHaveBeenCalled();
    // The revoked key is looked up again, and as a stranger: it is no longer "recently valid".
    expect(await auth(db, a.key)).toEqual({ found: null, unknown: true });
    expect(select).toHaveBeenCalledTimes(1);
    select.mockRestore();
    // Once b's cache entry is gone, b is still a key clients use, not a stranger: the revocation forgot only a.
    at(CACHE_MS);
    expect(await auth(db, b.key)).toMatchObject({ found: { keyId: b.keyId }, unknown: false });
  });

  it("is emptied by clearAuthCache: the next lookup asks the database again", async () => {
    const { key, keyId } = await makeOrg();
    const db = await getDb();
    expect((await auth(db, key)).found).toMatchObject({ keyId });
    await db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, keyId)); // another process
    clearAuthCache();
    expect((await auth(db, key)).found).toBeNull();
  });

  it("needs no options: a caller without a limit on unknown keys looks them up all the same", async () => {
    const { key, keyId, orgId } = await makeOrg();
    const db = await getDb();
    expect(await authenticateApiKey(db, key)).toEqual({ keyId, orgId, name: "test", apiVersion: CURRENT_API_VERSION });
    expect(await authenticateApiKey(db, "shw_" + "n".repeat(43))).toBeNull();
  });

  it("does not look up what cannot be a key: short and without the shw_ prefix", async () => {
    const db = await getDb();
    const select = vi.spyOn(db, "select");
    expect(await auth(db, "x".repeat(19))).toEqual({ found: null, unknown: false });
    expect(select).not.toHaveBeenCalled();
    for (const k of ["x".repeat(20), "shw_x"]) expect(await auth(db, k)).toEqual({ found: null, unknown: true });
    expect(select).toHaveBeenCalledTimes(2);
    select.mockRestore();
  });
});

describe("last_used_at", () => {
  it("is written on first use, then at most once a minute", async () => {
    const { key, keyId } = await makeOrg();
    const db = await getDb();
    expect(await lastUsed(keyId)).toBeNull();
    await auth(db, key);
    expect(await lastUsed(keyId)).toEqual(new Date(t0));
    at(LAST_USED_MS);
    await auth(db, key);
    expect(await lastUsed(keyId)).toEqual(new Date(t0));
    at(LAST_USED_MS + 1);
    await auth(db, key);
    expect(await lastUsed(keyId)).toEqual(new Date(t0 + LAST_USED_MS + 1));
    // Within the cache's 5 seconds too, the in-memory time decides: no second write.
    at(LAST_USED_MS + 2);
    const update = vi.spyOn(db, "update");
    await auth(db, key);
    expect(update).not.toHaveBeenCalled();
    update.mockRestore();
  });

  it("is not written again by a second instance that read the old time just before the first one wrote", async () => {
    const { key, keyId } = await makeOrg();
    const db = await getDb();
    await db
      .update(apiKeys)
      .set({ lastUsedAt: new Date(t0 - 2 * LAST_USED_MS) })
      .where(eq(apiKeys.id, keyId));
    // The order is forced, so that it is the same on both engines: both instances read the old time, the first one
    // writes, and only then does the second one try to.
    let secondRead!: () => void;
    const secondHasRead = new Promise<void>((resolve) => (secondRead = resolve));
    const first = auth(writesWaiting(db, secondHasRead), key);
    at(1_000);
    const second = auth(
      writesWaiting(db, first, () => secondRead()),
      key,
    );
    await Promise.all([first, second]);
    expect(await lastUsed(keyId)).toEqual(new Date(t0));
  });
});

describe("API keys", () => {
  it("are created only for an organization that exists, shown once, and stored as a hash with a short prefix", async () => {
    const ctx = await systemCtx();
    const missing = createApiKey({ ctx, orgId: "org_missing", name: "x", source: "api" });
    await expect(missing).rejects.toThrow(NotFoundError);
    await expect(missing).rejects.toThrow("Organization org_missing does not exist.");
    const { orgId } = await makeOrg();
    const created = await createApiKey({ ctx, orgId, name: "ci", source: "cli" });
    expect(created.id).toMatch(/^key_[0-9a-f]{32}$/);
    expect(created.key).toMatch(/^shw_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({ orgId, name: "ci" });
    expect(created.apiKey).toMatchObject({
      id: created.id,
      name: "ci",
      prefix: created.key.slice(0, 10),
      api_version: CURRENT_API_VERSION,
      last_used_at: null,
      revoked_at: null,
    });
    const [row] = await ctx.db.select().from(apiKeys).where(eq(apiKeys.id, created.id));
    expect(row).toMatchObject({ orgId, source: "cli", keyPrefix: created.key.slice(0, 10) });
    expect(row!.keyHash).not.toContain(created.key.slice(4));
    const pinned = await createApiKey({ ctx, orgId, name: "old", source: "api", apiVersion: "2021-07" });
    expect(pinned.apiKey.api_version).toBe("2021-07");
  });

  it("registers an operator's chosen key once, and reports it revoked once revoked", async () => {
    const ctx = await systemCtx();
    const { orgId } = await makeOrg();
    const key = "shw_" + "b".repeat(43) + Math.random().toString(36).slice(2);
    const first = await ensureApiKey({ ctx, orgId, name: "Bootstrap key", key });
    expect(first).toMatchObject({ created: true, revoked: false });
    expect(first.id).toMatch(/^key_[0-9a-f]{32}$/);
    expect((await listApiKeys({ ctx, orgId })).find((k) => k.id === first.id)).toMatchObject({
      name: "Bootstrap key",
      source: "bootstrap",
    });
    expect(await ensureApiKey({ ctx, orgId, name: "Bootstrap key", key })).toEqual({ ...first, created: false });
    await revokeApiKey({ ctx, keyId: first.id });
    expect(await ensureApiKey({ ctx, orgId, name: "Bootstrap key", key })).toEqual({
      id: first.id,
      created: false,
      revoked: true,
    });
    expect((await auth(ctx.db, key)).found).toBeNull();
  });

  it("are listed per organization (or all of them), newest first, and paged", async () => {
    const ctx = await systemCtx();
    const { orgId, keyId } = await makeOrg();
    at(1_000);
    const second = await createApiKey({ ctx, orgId, name: "second", source: "api" });
    const mine = await listApiKeys({ ctx, orgId });
    expect(mine.map((k) => k.id)).toEqual([second.id, keyId]);
    expect(mine[0]).toMatchObject({ orgId, name: "second", source: "api", revokedAt: null });
    const all = await listApiKeys({ ctx });
    expect(all.length).toBeGreaterThan(mine.length);
    expect(all.map((k) => k.id)).toEqual(expect.arrayContaining([second.id, keyId]));

    const octx = await orgCtx(orgId);
    expect(await pageOfApiKeys({ ctx: octx, limit: 1, offset: 0 })).toMatchObject({
      count: 2,
      results: [{ id: second.id }],
    });
    expect(await pageOfApiKeys({ ctx: octx, limit: 1, offset: 1 })).toMatchObject({
      count: 2,
      results: [{ id: keyId }],
    });
  });

  it("are revoked for good: once, only within their organization, keeping the first revocation time", async () => {
    const { orgId, keyId } = await makeOrg();
    const other = await makeOrg();
    const ctx = await systemCtx();
    await expect(revokeApiKey({ ctx, keyId, orgId: other.orgId })).rejects.toThrow(NotFoundError);
    await expect(revokeApiKey({ ctx, keyId: "key_missing" })).rejects.toThrow(
      new NotFoundError("API key key_missing does not exist."),
    );
    const first = await revokeApiKey({ ctx: await orgCtx(orgId), keyId, orgId });
    expect(first).toMatchObject({ id: keyId, orgId, apiKey: { revoked_at: formatTimestamp(new Date(t0)) } });
    at(60_000);
    const again = await revokeApiKey({ ctx, keyId });
    expect(again.apiKey.revoked_at).toBe(formatTimestamp(new Date(t0)));
    const [row] = await ctx.db.select().from(apiKeys).where(eq(apiKeys.id, keyId));
    expect(row!.revokedAt).toEqual(new Date(t0));
    expect((await auth(ctx.db, (await makeOrg()).key)).found).not.toBeNull();
  });
});

describe("API keys through the API", () => {
  it("POST /v1/api_keys makes a working key of the caller's organization, shown once, recorded as made through the API", async () => {
    const { orgId, key } = await makeOrg();
    const res = await call(createKeyRoute, "POST", "/v1/api_keys", {
      key,
      body: { name: "warehouse", api_version: "2021-07" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^key_[0-9a-f]{32}$/),
      name: "warehouse",
      prefix: res.body.key.slice(0, 10),
      api_version: "2021-07",
      created_at: expect.any(String), // the database's clock
      last_used_at: null,
      revoked_at: null,
      key: expect.stringMatching(/^shw_[A-Za-z0-9_-]{43}$/),
    });
    const [row] = await (await getDb()).select().from(apiKeys).where(eq(apiKeys.id, res.body.id));
    expect(row).toMatchObject({ orgId, name: "warehouse", source: "api" });
    expect((await auth(await getDb(), res.body.key)).found).toMatchObject({ keyId: res.body.id, orgId });
  });

  it("DELETE /v1/api_keys/{id} revokes a key of the caller's organization at once; another's is not found", async () => {
    const mine = await makeOrg();
    const other = await makeOrg();
    const db = await getDb();
    expect((await auth(db, other.key)).found).not.toBeNull();
    const refused = await call(revokeKeyRoute, "DELETE", `/v1/api_keys/${other.keyId}`, {
      key: mine.key,
      params: { id: other.keyId },
    });
    expect(refused.status).toBe(404);
    expect((await auth(db, other.key)).found).not.toBeNull();

    const spare = await createApiKey({ ctx: await systemCtx(), orgId: mine.orgId, name: "spare", source: "api" });
    const res = await call(revokeKeyRoute, "DELETE", `/v1/api_keys/${spare.id}`, {
      key: mine.key,
      params: { id: spare.id },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: spare.id, name: "spare", revoked_at: formatTimestamp(new Date(t0)) });
    expect((await auth(db, spare.key)).found).toBeNull();
  });

  it("refuses a field that would restrict a new key, rather than make an unrestricted one in silence", async () => {
    // docs/api.md, "API keys and organizations": the one body whose unknown fields are refused.
    const { key, orgId } = await makeOrg();
    for (const extra of [{ role: "member" }, { scopes: ["trackers:read"] }, { test_mode: true }]) {
      const res = await call(createKeyRoute, "POST", "/v1/api_keys", { key, body: { name: "narrow", ...extra } });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([
        { code: "validation_error", message: "is not a known field", field: Object.keys(extra)[0] },
      ]);
    }
    const ctx = await orgCtx(orgId);
    expect((await pageOfApiKeys({ ctx, limit: 100, offset: 0 })).count).toBe(1);
  });
});
