import { afterEach, describe, expect, it, vi } from "vitest";
import { authenticate } from "@/lib/api/authenticate";
import { addressLimiter } from "@/lib/api/rate-limit";
import { clearAuthCache } from "@/lib/auth/api-keys";
import { SESSION_COOKIE } from "@/lib/auth/session-cookie";
import { getDb } from "@/lib/db/client";
import { resetEnvCache } from "@/lib/env";
import { makeOrg } from "./helpers";
import { newAccount, ORIGIN, signUp } from "./session-helpers";

// Who a request acts as, asked of `authenticate` directly: the wire answers (status, envelope) are in
// test/api-keys.test.ts, test/accounts.test.ts and test/unauthenticated-rate-limit.test.ts.

afterEach(() => {
  delete process.env.PUBLIC_URL;
  delete process.env.TRUST_PROXY;
  resetEnvCache();
  addressLimiter.reset();
  clearAuthCache();
  vi.useRealTimers();
});

function request(headers: Record<string, string>, method = "GET", url = `${ORIGIN}/v1/shipments`) {
  return new Request(url, { method, headers: { "X-Forwarded-For": "198.51.100.9", ...headers } });
}
async function callerOf(req: Request) {
  return authenticate(req, await getDb());
}

describe("an API key", () => {
  it("is read from `Authorization: Token <key>`, the scheme in any case, with any spacing", async () => {
    const { key, orgId, keyId } = await makeOrg();
    for (const authorization of [`Token ${key}`, `token ${key}`, `TOKEN    ${key}`, `Token\t${key}`]) {
      expect(await callerOf(request({ Authorization: authorization }))).toEqual({
        type: "api_key",
        id: keyId,
        name: "test",
        orgId,
        apiVersion: expect.any(String),
      });
    }
  });

  it("in any other shape is refused with how to send one", async () => {
    const { key } = await makeOrg();
    const shapes: Record<string, string>[] = [
      {},
      { Authorization: `Bearer ${key}` },
      { Authorization: `Token ${key} extra` },
      { Authorization: `Token${key}` },
      { Authorization: `MyToken ${key}` },
      { Authorization: "Token" },
    ];
    for (const headers of shapes) {
      await expect(callerOf(request(headers))).rejects.toMatchObject({
        code: "unauthorized",
        message: "Provide an API key as `Authorization: Token <API_KEY>`.",
        options: { headers: expect.objectContaining({ "WWW-Authenticate": "Token", "X-RateLimit-Limit": "60" }) },
      });
    }
  });

  it("that is unknown is refused as not valid or revoked", async () => {
    await expect(
      callerOf(request({ Authorization: "Token shw_this-key-was-never-issued-000000000000" })),
    ).rejects.toMatchObject({
      code: "unauthorized",
      message: "The API key is not valid or has been revoked.",
      options: { headers: expect.objectContaining({ "WWW-Authenticate": "Token" }) },
    });
  });

  it("that is valid gives back the token its lookup drew from the address's bucket", async () => {
    const { key } = await makeOrg();
    process.env.UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE = "2";
    resetEnvCache();
    try {
      // Three lookups of a key never seen before: each draws a token and returns it, so the bucket never empties.
      for (let i = 0; i < 3; i++) {
        clearAuthCache();
        await callerOf(request({ Authorization: `Token ${key}` }));
      }
      await expect(callerOf(request({}))).rejects.toMatchObject({ code: "unauthorized" });
      await expect(callerOf(request({}))).rejects.toMatchObject({ code: "unauthorized" });
      await expect(callerOf(request({}))).rejects.toMatchObject({
        code: "rate_limited",
        message: expect.stringMatching(
          /^Too many requests without a valid API key from this address; retry in \d+ s\.$/,
        ),
      });
    } finally {
      delete process.env.UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE;
      resetEnvCache();
    }
  });

  it("that clients are using costs its address nothing: it neither draws a token nor gives one back", async () => {
    const { key } = await makeOrg();
    vi.useFakeTimers({ toFake: ["Date"] }); // the bucket does not refill while the test runs
    process.env.UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE = "2";
    resetEnvCache();
    try {
      await callerOf(request({ Authorization: `Token ${key}` })); // looked up once: drawn and given back
      for (let i = 0; i < 2; i++) await expect(callerOf(request({}))).rejects.toMatchObject({ code: "unauthorized" });
      // The bucket is empty; the known key still passes, from the cache, and puts no token back into it.
      await callerOf(request({ Authorization: `Token ${key}` }));
      await expect(callerOf(request({}))).rejects.toMatchObject({ code: "rate_limited" });
    } finally {
      delete process.env.UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE;
    }
  });
});

describe("a session cookie", () => {
  it("acts as the signed-in person, and a key beside it wins", async () => {
    const cookie = await signUp(newAccount());
    expect(await callerOf(request({ Cookie: cookie }))).toMatchObject({ type: "user", role: "owner" });
    const { key, orgId } = await makeOrg();
    expect(await callerOf(request({ Cookie: cookie, Authorization: `Token ${key}` }))).toMatchObject({
      type: "api_key",
      orgId,
    });
  });

  it("that is no longer valid is refused with a sign-in hint", async () => {
    await expect(callerOf(request({ Cookie: `${SESSION_COOKIE}=forged.value` }))).rejects.toMatchObject({
      code: "unauthorized",
      message: "The session has expired or was signed out; sign in again.",
      options: { headers: { "WWW-Authenticate": "Token" } },
    });
  });

  it("reads from any page, but writes only from this site's pages", async () => {
    const cookie = await signUp(newAccount());
    const elsewhere = { Cookie: cookie, Origin: "https://evil.example" };
    for (const method of ["GET", "HEAD", "OPTIONS"]) {
      expect(await callerOf(request(elsewhere, method))).toMatchObject({ type: "user" });
    }
    for (const method of ["POST", "PATCH", "PUT", "DELETE"]) {
      await expect(callerOf(request(elsewhere, method))).rejects.toMatchObject({
        code: "forbidden",
        message:
          "A request signed in with a session cookie may only change data from this site's own pages (its Origin header).",
      });
    }
    expect(await callerOf(request({ Cookie: cookie, Origin: ORIGIN }, "POST"))).toMatchObject({ type: "user" });
    for (const origin of ["null", "not a url"]) {
      await expect(callerOf(request({ Cookie: cookie, Origin: origin }, "POST"))).rejects.toMatchObject({
        code: "forbidden",
      });
    }
  });

  it("knows this site by PUBLIC_URL, by the Host header, or (behind a trusted proxy only) by X-Forwarded-Host and -Proto", async () => {
    const cookie = await signUp(newAccount());
    const write = (headers: Record<string, string>) =>
      callerOf(request({ Cookie: cookie, ...headers }, "POST", "http://10.1.2.3:3000/v1/shipments"));

    // The host the request was sent to, from Host, else from its URL.
    await expect(write({ Origin: "http://10.1.2.3:3000" })).resolves.toMatchObject({ type: "user" });
    await expect(write({ Origin: "http://ship.example.com", Host: "ship.example.com" })).resolves.toMatchObject({
      type: "user",
    });
    await expect(write({ Origin: "http://10.1.2.3:3000", Host: "ship.example.com" })).rejects.toMatchObject({
      code: "forbidden",
    });
    // The scheme and the port count: the request came over http to the default port.
    for (const origin of ["https://ship.example.com", "http://ship.example.com:8080"]) {
      await expect(write({ Origin: origin, Host: "ship.example.com" }), origin).rejects.toMatchObject({
        code: "forbidden",
      });
    }

    process.env.PUBLIC_URL = "https://ship.example.com";
    resetEnvCache();
    await expect(write({ Origin: "https://ship.example.com" })).resolves.toMatchObject({ type: "user" });
    await expect(write({ Origin: "https://other.example.com" })).rejects.toMatchObject({ code: "forbidden" });

    const proxied = {
      Origin: "https://public.example.org",
      "X-Forwarded-Host": "public.example.org, inner.local",
      "X-Forwarded-Proto": "https, http",
    };
    await expect(write(proxied)).rejects.toMatchObject({ code: "forbidden" });
    process.env.TRUST_PROXY = "1";
    resetEnvCache();
    await expect(write(proxied)).resolves.toMatchObject({ type: "user" });
    await expect(
      write({ ...proxied, "X-Forwarded-Host": "public.example.org , inner.local", "X-Forwarded-Proto": " https" }),
    ).resolves.toMatchObject({ type: "user" });
    // The proxy says the request came over http: an https page of that host is another origin.
    await expect(write({ ...proxied, "X-Forwarded-Proto": "http" })).rejects.toMatchObject({ code: "forbidden" });
    // A forwarded "host" that carries credentials or a path names no origin.
    await expect(write({ ...proxied, "X-Forwarded-Host": "evil.test@public.example.org" })).rejects.toMatchObject({
      code: "forbidden",
    });
    // A trusted proxy that forwards no host: the Host header, else the request's URL, as without one.
    await expect(write({ Origin: "http://10.1.2.3:3000" })).resolves.toMatchObject({ type: "user" });
  });
});
