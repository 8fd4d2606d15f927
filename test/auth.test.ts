import { afterEach, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { GET as listConnections } from "@/app/v1/connections/route";
import { getDb } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema";
import { revokeApiKey } from "@/lib/auth/api-keys";
import { call, makeOrg, systemCtx } from "./helpers";

describe("API key authentication", () => {
  afterEach(() => vi.useRealTimers());

  it("rejects a missing key with 401, the envelope and WWW-Authenticate", async () => {
    const res = await call(listConnections, "GET", "/v1/connections");
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe("Token");
    expect(res.body).toEqual({ errors: [{ code: "unauthorized", message: expect.any(String), field: null }] });
  });

  it("rejects a malformed header, an unknown key and a Bearer scheme", async () => {
    const { key } = await makeOrg();
    for (const value of [key, `Bearer ${key}`, "Token", "Token shw_not-a-real-key-at-all-000000000000"]) {
      const res = await call(listConnections, "GET", "/v1/connections", { headers: { Authorization: value } });
      expect(res.status, value).toBe(401);
      expect(res.body.errors[0].code).toBe("unauthorized");
    }
  });

  it("accepts a valid key, records last_used_at, and rejects it once revoked", async () => {
    const { key, keyId } = await makeOrg();
    const ok = await call(listConnections, "GET", "/v1/connections", { key });
    expect(ok.status).toBe(200);
    const db = await getDb();
    const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, keyId));
    expect(row!.lastUsedAt).toBeInstanceOf(Date);
    expect(row!.keyHash).not.toContain(key);
    expect(row!.keyHash).toMatch(/^[0-9a-f]{64}$/);

    await revokeApiKey({ ctx: await systemCtx(), keyId });
    const denied = await call(listConnections, "GET", "/v1/connections", { key });
    expect(denied.status).toBe(401);
  });

  it("sees a revocation made by another process once the short auth cache expires", async () => {
    const { key, keyId } = await makeOrg();
    vi.useFakeTimers({ toFake: ["Date"] });
    expect((await call(listConnections, "GET", "/v1/connections", { key })).status).toBe(200);
    const db = await getDb();
    // Another instance (or the CLI) revokes the key directly in the database.
    await db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, keyId));
    vi.advanceTimersByTime(4_999);
    expect((await call(listConnections, "GET", "/v1/connections", { key })).status).toBe(200); // within AUTH_CACHE_TTL_MS
    vi.advanceTimersByTime(1);
    expect((await call(listConnections, "GET", "/v1/connections", { key })).status).toBe(401);
  });

  it("echoes a well-formed X-Request-ID and replaces a malformed one", async () => {
    const { key } = await makeOrg();
    const echoed = await call(listConnections, "GET", "/v1/connections", {
      key,
      headers: { "X-Request-ID": "abc.123_x-y" },
    });
    expect(echoed.headers.get("x-request-id")).toBe("abc.123_x-y");
    const replaced = await call(listConnections, "GET", "/v1/connections", {
      key,
      headers: { "X-Request-ID": "bad id!" },
    });
    expect(replaced.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
    const unauth = await call(listConnections, "GET", "/v1/connections");
    expect(unauth.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
  });
});
