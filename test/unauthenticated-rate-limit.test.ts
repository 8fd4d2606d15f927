import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as listConnections } from "@/app/v1/connections/route";
import { addressLimiter, rateLimiter } from "@/lib/api/rate-limit";
import { clearAuthCache } from "@/lib/auth/api-keys";
import { getDb } from "@/lib/db/client";
import { resetEnvCache } from "@/lib/env";
import { call, makeOrg } from "./helpers";

const LIMIT = 5;
beforeAll(() => {
  process.env.UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE = String(LIMIT);
  resetEnvCache();
});
afterAll(() => {
  delete process.env.UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE;
  delete process.env.TRUST_PROXY;
  resetEnvCache();
});
afterEach(() => {
  addressLimiter.reset();
  rateLimiter.reset();
  clearAuthCache();
  vi.restoreAllMocks();
});

// X-Forwarded-For as the front door leaves it: whatever the client sent, then the TCP peer's address.
const from = (peer: string, headers: Record<string, string> = {}) => ({ "X-Forwarded-For": peer, ...headers });
const badRequests: Record<string, string>[] = [
  {},
  { Authorization: "Bearer nope" },
  { Authorization: "Token shw_not-a-real-key-at-all-000000000000" },
  { Authorization: "Token shw_another-unknown-key-0000000000000000" },
  { Authorization: "Token short" },
];

describe("requests without a valid API key", () => {
  it("are limited per address: 401s count down, then 429 before the database is asked", async () => {
    for (const [i, headers] of badRequests.entries()) {
      const res = await call(listConnections, "GET", "/v1/connections", { headers: from("203.0.113.7", headers) });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe("Token");
      expect(res.headers.get("x-ratelimit-limit")).toBe(String(LIMIT));
      expect(res.headers.get("x-ratelimit-remaining")).toBe(String(LIMIT - 1 - i));
    }
    const db = await getDb();
    const select = vi.spyOn(db, "select");
    const over = await call(listConnections, "GET", "/v1/connections", {
      headers: from("203.0.113.7", { Authorization: "Token shw_yet-another-guess-00000000000000000000" }),
    });
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ errors: [{ code: "rate_limited", message: expect.any(String), field: null }] });
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(over.headers.get("x-ratelimit-limit")).toBe(String(LIMIT));
    expect(over.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(select).not.toHaveBeenCalled();
    // The same guess from an address with tokens left is looked up (so the spy above watches the lookup).
    await call(listConnections, "GET", "/v1/connections", {
      headers: from("203.0.113.70", { Authorization: "Token shw_yet-another-guess-00000000000000000000" }),
    });
    expect(select).toHaveBeenCalled();
  });

  it("leave valid keys alone: theirs is the per-key limit, and other addresses have their own buckets", async () => {
    const { key } = await makeOrg();
    const client = () => call(listConnections, "GET", "/v1/connections", { key, headers: from("203.0.113.8") });
    expect((await client()).status).toBe(200); // the client was working before the guessing began
    for (let i = 0; i <= LIMIT; i++)
      await call(listConnections, "GET", "/v1/connections", { headers: from("203.0.113.8") });
    expect((await call(listConnections, "GET", "/v1/connections", { headers: from("203.0.113.8") })).status).toBe(429);

    clearAuthCache(); // the 5 s lookup cache has expired: the key is looked up again, its address's bucket empty
    const ok = await client();
    expect(ok.status).toBe(200);
    expect(ok.headers.get("x-ratelimit-limit")).toBe("600"); // the key's own limit
    const elsewhere = await call(listConnections, "GET", "/v1/connections", { headers: from("198.51.100.1") });
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.headers.get("x-ratelimit-remaining")).toBe(String(LIMIT - 1));
  });

  it("count a new valid key's lookup only until it proves valid", async () => {
    const { key } = await makeOrg();
    const res = await call(listConnections, "GET", "/v1/connections", { key, headers: from("203.0.113.9") });
    expect(res.status).toBe(200);
    const next = await call(listConnections, "GET", "/v1/connections", { headers: from("203.0.113.9") });
    expect(next.headers.get("x-ratelimit-remaining")).toBe(String(LIMIT - 1)); // the valid key's token came back
  });

  it("are counted by the address the server saw, not by what the client wrote in X-Forwarded-For", async () => {
    for (let i = 0; i < LIMIT; i++) {
      const spoofed = from(`10.0.0.${i}, 203.0.113.10`);
      expect((await call(listConnections, "GET", "/v1/connections", { headers: spoofed })).status).toBe(401);
    }
    const res = await call(listConnections, "GET", "/v1/connections", { headers: from("10.9.9.9, 203.0.113.10") });
    expect(res.status).toBe(429);
  });

  it("behind TRUST_PROXY proxies, are counted by the address the first of them saw", async () => {
    process.env.TRUST_PROXY = "true";
    resetEnvCache();
    try {
      // client-written, then what our proxy saw, then the proxy itself (the peer)
      const via = (client: string) => from(`1.2.3.4, ${client}, 10.0.0.2`);
      for (let i = 0; i < LIMIT; i++)
        await call(listConnections, "GET", "/v1/connections", { headers: via("192.0.2.1") });
      expect((await call(listConnections, "GET", "/v1/connections", { headers: via("192.0.2.1") })).status).toBe(429);
      expect((await call(listConnections, "GET", "/v1/connections", { headers: via("192.0.2.2") })).status).toBe(401);
    } finally {
      delete process.env.TRUST_PROXY;
      resetEnvCache();
    }
  });

  it("count an IPv6 client by its /64, whichever address in it it sends from", async () => {
    const bad = { Authorization: "Token shw_not-a-real-key-at-all-000000000000" };
    for (let i = 0; i < LIMIT; i++) {
      const peer = `2001:db8:1:2:${i}::${i + 1}`;
      expect((await call(listConnections, "GET", "/v1/connections", { headers: from(peer, bad) })).status).toBe(401);
    }
    const rotated = await call(listConnections, "GET", "/v1/connections", {
      headers: from("2001:0DB8:1:2:ffff:ffff:ffff:ffff", bad),
    });
    expect(rotated.status).toBe(429);
    const neighbour = await call(listConnections, "GET", "/v1/connections", { headers: from("2001:db8:1:3::1", bad) });
    expect(neighbour.status).toBe(401);
  });

  it("share one bucket when no address is known", async () => {
    for (let i = 0; i < LIMIT; i++) await call(listConnections, "GET", "/v1/connections");
    expect((await call(listConnections, "GET", "/v1/connections")).status).toBe(429);
  });
});
