import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { authEndpoint, resetSignInLimits, shareSignInLimits } from "@/lib/api/auth-endpoint";
import { log } from "@/lib/log";
import { ORIGIN, newAccount, signIn, signUp } from "./session-helpers";

// What lib/api/auth-endpoint.ts does around better-auth, each piece on its own: better-auth, the database's state,
// the audit row and the shared store can each be replaced by a test here; otherwise they are the real ones.
const fake = vi.hoisted(() => ({
  handler: null as null | ((req: Request) => Promise<Response>),
  down: false,
  openFails: null as null | Error,
  auditFails: false,
  settles: [] as string[],
}));
vi.mock("@/lib/auth/better-auth", async (real) => {
  const mod = await real<typeof import("@/lib/auth/better-auth")>();
  return { ...mod, authFor: (db: never) => (fake.handler ? { handler: fake.handler } : mod.authFor(db)) };
});
vi.mock("@/lib/db/down", async (real) => {
  const mod = await real<typeof import("@/lib/db/down")>();
  return { ...mod, isDatabaseDown: () => fake.down || mod.isDatabaseDown() };
});
vi.mock("@/lib/db/client", async (real) => {
  const mod = await real<typeof import("@/lib/db/client")>();
  return { ...mod, getDb: () => (fake.openFails ? Promise.reject(fake.openFails) : mod.getDb()) };
});
vi.mock("@/lib/audit/account", async (real) => {
  const mod = await real<typeof import("@/lib/audit/account")>();
  return {
    ...mod,
    recordSignIn: (...args: Parameters<typeof mod.recordSignIn>) =>
      fake.auditFails ? Promise.reject(new Error("audit row refused")) : mod.recordSignIn(...args),
  };
});
vi.mock("@/lib/api/rate-limit-store", async (real) => {
  const mod = await real<typeof import("@/lib/api/rate-limit-store")>();
  return {
    ...mod,
    postgresSettle: (scope: string) => {
      fake.settles.push(scope);
      return async (entries: unknown[]) => entries.map(() => 0);
    },
  };
});

beforeEach(() => resetSignInLimits());
afterEach(() => {
  Object.assign(fake, { handler: null, down: false, openFails: null, auditFails: false });
  vi.restoreAllMocks();
});

const post = (path: string, body: string | null, headers: Record<string, string> = {}) =>
  authEndpoint(
    new Request(`${ORIGIN}/api/auth${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: ORIGIN, "X-Forwarded-For": "10.9.0.1", ...headers },
      body,
    }),
  );

describe("the account endpoints' own refusals", () => {
  it("answer in better-auth's shape, never cached: too large, not JSON, bad input", async () => {
    const large = await post("/sign-in/email", JSON.stringify({ email: "a@b.test", password: "x".repeat(70_000) }));
    expect(large.status).toBe(413);
    expect(await large.json()).toEqual({
      code: "PAYLOAD_TOO_LARGE",
      message: "The request body is larger than 64 KiB.",
    });
    expect(large.headers.get("cache-control")).toBe("no-store");

    const form = await post("/sign-in/email", "email=a%40b.test", {
      "Content-Type": "application/x-www-form-urlencoded",
    });
    expect(form.status).toBe(415);
    expect(await form.json()).toEqual({
      code: "UNSUPPORTED_MEDIA_TYPE",
      message: "Send the body as application/json.",
    });
    expect(form.headers.get("cache-control")).toBe("no-store");

    const nul = await post("/sign-up/email", JSON.stringify({ name: "a\u0000b", email: "n@b.test", password: "p" }));
    expect(nul.status).toBe(400);
    expect(await nul.json()).toEqual({
      code: "VALIDATION_ERROR",
      message: "name must not contain a NUL character (\\u0000)",
    });
    // A problem with no field names none.
    const bare = await post("/sign-up/email", JSON.stringify("a\u0000b"));
    expect((await bare.json()).message).toBe("must not contain a NUL character (\\u0000)");
  });

  it("limit every password endpoint per address, with the wait in words and in Retry-After", async () => {
    for (const path of ["/sign-up/email", "/delete-user", "/reset-password"]) {
      resetSignInLimits();
      const statuses: number[] = [];
      // Bodies better-auth refuses before any hash: only the limit is counted here.
      for (let i = 0; i < 11; i++)
        statuses.push((await post(path, JSON.stringify({}), { "X-Forwarded-For": "10.9.1.1" })).status);
      expect(statuses.slice(0, 10), path).not.toContain(429);
      const limited = await post(path, JSON.stringify({}), { "X-Forwarded-For": "10.9.1.1" });
      expect(limited.status, path).toBe(429);
      const wait = limited.headers.get("retry-after");
      expect(wait).toMatch(/^\d+$/);
      expect(await limited.json()).toEqual({
        code: "RATE_LIMITED",
        message: `Too many attempts. Try again in ${wait} s.`,
      });
      expect(limited.headers.get("cache-control")).toBe("no-store");
    }
  });

  it("do not read an account's budget into a sign-in that names no email", async () => {
    // Spread over addresses: the per-address limit stays out of it. 21 sign-ins without an email are no account's.
    for (let i = 0; i < 21; i++) {
      const res = await post("/sign-in/email", JSON.stringify({ password: "nobody's" }), {
        "X-Forwarded-For": `10.9.2.${i}`,
      });
      expect(res.status).not.toBe(429);
    }
  });

  it("count an account's attempts however its email is written, and log its limit without naming it", async () => {
    const warn = vi.spyOn(log(), "warn");
    const account = newAccount();
    const written = [account.email, account.email.toUpperCase(), ` ${account.email} `];
    vi.useFakeTimers({ toFake: ["Date"] });
    const statuses: number[] = [];
    try {
      for (let i = 0; i < 21; i++) {
        const email = written[i % written.length]!;
        statuses.push((await signIn({ email, password: "wrong password!" }, `10.9.3.${i}`)).status);
      }
    } finally {
      vi.useRealTimers();
    }
    // One budget of 20 for the account, not one per way of writing it.
    expect(statuses.at(-1)).toBe(429);
    expect(warn).toHaveBeenCalledWith({ msg: "password attempts limited for an account" });
    expect(JSON.stringify(warn.mock.calls).toLowerCase()).not.toContain(account.email);
  }, 30_000);

  it("pass a GET and a body that is not a password's through without the JSON rule", async () => {
    const session = await authEndpoint(new Request(`${ORIGIN}/api/auth/get-session`, { headers: { Origin: ORIGIN } }));
    expect(session.status).toBe(200);
    expect(session.headers.get("cache-control")).toBe("no-store");
    const signOut = await post("/sign-out", null, { "Content-Type": "text/plain" });
    expect(signOut.status).not.toBe(415);
    // A password endpoint's path asked with GET is better-auth's to answer (it has no such route), not a 415.
    const get = await authEndpoint(new Request(`${ORIGIN}/api/auth/sign-in/email`, { headers: { Origin: ORIGIN } }));
    expect(get.status).not.toBe(415);
  });
});

describe("better-auth's answers", () => {
  it("lose every token string at any depth, and keep everything else", async () => {
    const body = {
      token: "t1",
      session: { token: "t2", id: "s1", tokens: ["kept"] },
      sessions: [{ token: "t3", userAgent: "x" }],
      other: { token: 7 },
    };
    fake.handler = async () => Response.json(body, { headers: { "Set-Cookie": "a=b" } });
    const res = await authEndpoint(new Request(`${ORIGIN}/api/auth/get-session`, { headers: { Origin: ORIGIN } }));
    expect(await res.json()).toEqual({
      session: { id: "s1", tokens: ["kept"] },
      sessions: [{ userAgent: "x" }],
      other: { token: 7 },
    });
    expect(res.headers.get("set-cookie")).toBe("a=b");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("that are not JSON, or not JSON that parses, are passed on as they are", async () => {
    fake.handler = async () => new Response("token: plain", { headers: { "Content-Type": "text/plain" } });
    const plain = await authEndpoint(new Request(`${ORIGIN}/api/auth/ok`));
    expect(await plain.text()).toBe("token: plain");
    fake.handler = async () =>
      new Response('{"token": "t', { status: 502, headers: { "Content-Type": "application/json" } });
    const broken = await authEndpoint(new Request(`${ORIGIN}/api/auth/ok`));
    expect(broken.status).toBe(502);
    expect(await broken.text()).toBe('{"token": "t');
  });

  it("are 503 while the database is away, and better-auth is not asked once it is known to be", async () => {
    const expectDown = async (res: Response) => {
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      expect(await res.json()).toEqual({
        code: "UNAVAILABLE",
        message: "The service is temporarily unavailable. Try again shortly.",
      });
    };
    let asked = 0;
    fake.handler = async () => {
      asked++;
      return new Response(null, { status: 500 });
    };
    // better-auth's bare 500 is a fault of ours while the database is up...
    expect((await authEndpoint(new Request(`${ORIGIN}/api/auth/get-session`))).status).toBe(500);
    // ...an outage once it is known to be down, and then it is not asked at all.
    fake.down = true;
    await expectDown(await authEndpoint(new Request(`${ORIGIN}/api/auth/get-session`)));
    expect(asked).toBe(1);
    // Found down while better-auth was asked: its 500 is the outage; any other answer stands as it is.
    fake.handler = async () => {
      fake.down = true;
      return new Response(null, { status: 500 });
    };
    fake.down = false;
    await expectDown(await authEndpoint(new Request(`${ORIGIN}/api/auth/get-session`)));
    fake.handler = async () => {
      fake.down = true;
      return Response.json({ ok: true });
    };
    fake.down = false;
    expect((await authEndpoint(new Request(`${ORIGIN}/api/auth/get-session`))).status).toBe(200);
    fake.down = false;
    // The database could not be opened: an outage; any other failure is not one.
    fake.openFails = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    await expectDown(await authEndpoint(new Request(`${ORIGIN}/api/auth/get-session`)));
    fake.openFails = new Error("a bug");
    await expect(authEndpoint(new Request(`${ORIGIN}/api/auth/get-session`))).rejects.toThrow("a bug");
  });

  it("of a sign-in stand when its audit row cannot be written: the failure is logged", async () => {
    const account = newAccount();
    await signUp(account, "10.9.4.1");
    fake.auditFails = true;
    const error = vi.spyOn(log(), "error");
    const res = await signIn(account, "10.9.4.1");
    expect(res.status).toBe(200);
    expect(error).toHaveBeenCalledWith(expect.objectContaining({ msg: "could not record a sign-in in the audit log" }));
  });
});

describe("shared sign-in limits", () => {
  it("settle the address and the account buckets each under its own name", async () => {
    const g = globalThis as unknown as Record<string, { settle?: unknown; timer?: NodeJS.Timeout }>;
    const limiters = [g.__shipwellSignInByAddress!, g.__shipwellSignInByEmail!];
    try {
      shareSignInLimits();
      expect(fake.settles).toEqual(["sign-in-address", "sign-in-account"]);
      for (const l of limiters) expect(l.settle).toBeTypeOf("function");
    } finally {
      // Not shared for the rest of this worker's files.
      for (const l of limiters) {
        clearInterval(l.timer);
        l.timer = undefined;
        l.settle = undefined;
      }
    }
  });
});
