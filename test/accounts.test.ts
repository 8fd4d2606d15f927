import { beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { eq, inArray } from "drizzle-orm";
import { GET as listShipments, POST as createShipment } from "@/app/v1/shipments/route";
import { GET as listKeys } from "@/app/v1/api_keys/route";
import { resetSignInLimits } from "@/lib/api/auth-endpoint";
import { authEndpoint } from "@/lib/api/auth-endpoint";
import { createInvitation } from "@/lib/auth/invitations";
import { maySignUp } from "@/lib/auth/sign-up-policy";
import { createSavedAddress } from "@/lib/addresses/create-saved-address";
import { startingShipFrom } from "@/lib/addresses/starting-ship-from";
import { addMember, lastShipFrom, membershipOf, placeNewUser, rememberShipFrom } from "@/lib/auth/memberships";
import { getDb } from "@/lib/db/client";
import { resetEnvCache } from "@/lib/env";
import { accounts, memberships, organizations, sessions, users } from "@/lib/db/schema";
import { sessionsOf, signedInUser } from "@/lib/auth/sessions";
import type { Db } from "@/lib/db/tx";
import { ensureDefaultOrganization } from "@/lib/orgs/create-organization";
import { RatingAddressInput } from "@/lib/schemas/address";
import { SavedAddressCreate } from "@/lib/schemas/address-book";
import { call, makeOrg, orgCtx, systemCtx } from "./helpers";
import { rateRequest } from "./factories";
import { ORIGIN, authPost, cookieFrom, newAccount, signIn, signUp } from "./session-helpers";

beforeEach(() => resetSignInLimits());

async function userIdOf(email: string): Promise<string> {
  const [row] = await (await getDb()).select({ id: users.id }).from(users).where(eq(users.email, email));
  return row!.id;
}

describe("accounts", () => {
  it("signs up with a scrypt-hashed password, starts a session and places the person in an organization as owner", async () => {
    const account = newAccount("Ada Lovelace");
    const cookie = await signUp(account);
    expect(cookie).toMatch(/shipwell\.session_token=/);
    const id = await userIdOf(account.email);
    expect(id).toMatch(/^usr_[0-9a-f]{32}$/);
    const [stored] = await (await getDb()).select().from(accounts).where(eq(accounts.userId, id));
    // better-auth's scrypt format: 16-byte salt and 64-byte key, hex, never the password itself.
    expect(stored!.password).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
    expect(stored!.password).not.toContain(account.password);
    const membership = await membershipOf(await getDb(), id);
    expect(membership?.role).toBe("owner");
    const me = await call(listShipments, "GET", "/v1/shipments", { headers: { Cookie: cookie } });
    expect(me.status).toBe(200);
  });

  it("makes the first person to sign up the owner of the default organization, and only one of two at once", async () => {
    const db = await getDb();
    // A default organization nobody has joined yet: any earlier one (claimed or not) steps aside.
    await db.update(organizations).set({ isDefault: false }).where(eq(organizations.isDefault, true));
    const { org, created } = await ensureDefaultOrganization({ ctx: await systemCtx() });
    expect(created).toBe(true);
    const [a, b] = [newAccount("A"), newAccount("B")];
    await Promise.all([signUp(a, "10.1.0.1"), signUp(b, "10.1.0.2")]);
    const placed = await Promise.all([a, b].map(async (x) => membershipOf(db, await userIdOf(x.email))));
    const inDefault = placed.filter((m) => m?.orgId === org.id);
    expect(inDefault).toHaveLength(1);
    for (const m of placed) expect(m?.role).toBe("owner");
    // Placing again changes nothing.
    const again = await placeNewUser(db, { id: await userIdOf(a.email), name: "A", email: a.email });
    expect(again).toEqual(placed[0]);
  });

  it("places a person the sign-up hook left in no organization on their next request, as the default's owner if it is free", async () => {
    const db = await getDb();
    const account = newAccount("Grace");
    const cookie = await signUp(account);
    const id = await userIdOf(account.email);
    await db.delete(memberships).where(eq(memberships.userId, id)); // the hook failed after the account was written
    await db.update(organizations).set({ isDefault: false }).where(eq(organizations.isDefault, true));
    const { org } = await ensureDefaultOrganization({ ctx: await systemCtx() });
    const placed = { orgId: org.id, orgName: "Default organization", role: "owner" };
    expect((await signedInUser(db, new Headers({ Cookie: cookie })))?.membership).toEqual(placed);
    expect(await membershipOf(db, id)).toEqual(placed);
  });

  it("names a new person's own organization after them, trimmed, or 'My organization' without a name", async () => {
    const db = await getDb();
    // No free default organization: everyone placed here starts their own.
    await db.update(organizations).set({ isDefault: false }).where(eq(organizations.isDefault, true));
    for (const [name, orgName] of [
      ["  Ada Lovelace  ", "Ada Lovelace's organization"],
      ["   ", "My organization"],
    ]) {
      const account = newAccount(name);
      await signUp(account);
      const id = await userIdOf(account.email);
      await db.delete(memberships).where(eq(memberships.userId, id));
      const placed = await placeNewUser(db, { id, name: name!, email: account.email });
      expect(placed).toEqual({ orgId: expect.stringMatching(/^org_/), orgName, role: "owner" });
      expect(await membershipOf(db, id)).toEqual(placed);
    }
  });

  it("answers the organization a person joined last when another placement lands while their own is made", async () => {
    const db = await getDb();
    await db.update(organizations).set({ isDefault: false }).where(eq(organizations.isDefault, true));
    const account = newAccount("Racer");
    await signUp(account);
    const id = await userIdOf(account.email);
    await db.delete(memberships).where(eq(memberships.userId, id));
    const company = await makeOrg("Company");
    // After placeNewUser saw no membership, another request (an accepted invitation) puts them in the company.
    const racing = Object.create(db) as Db;
    let joined = false;
    racing.transaction = async (fn, config) => {
      if (!joined) {
        joined = true;
        const later = new Date(Date.now() + 60_000);
        await db.insert(memberships).values({ orgId: company.orgId, userId: id, role: "member", createdAt: later });
      }
      return db.transaction(fn, config);
    };
    const placed = await placeNewUser(racing, { id, name: "Racer", email: "racer@example.test" });
    expect(placed).toEqual({ orgId: company.orgId, orgName: "Company", role: "member" });
    expect(await membershipOf(db, id)).toEqual(placed);
  });

  it("answers a sign-up the same whether or not the email already has an account", async () => {
    const taken = newAccount("Taken");
    await signUp(taken);
    const fresh = newAccount("Fresh");
    const answers = await Promise.all([
      authPost("/sign-up/email", { ...taken, password: "another password entirely" }, { address: "10.6.0.1" }),
      authPost("/sign-up/email", fresh, { address: "10.6.0.2" }),
    ]);
    const seen = await Promise.all(
      answers.map(async (res) => ({
        status: res.status,
        cookie: cookieFrom(res),
        keys: Object.keys(await res.json()).sort(),
      })),
    );
    expect(seen[0]).toEqual(seen[1]);
    expect(seen[0]!.status).toBe(200);
    // Neither signs in by itself: the new account signs in with its password, the taken one does not.
    expect(seen[0]!.cookie).toBe("");
    expect((await signIn(fresh, "10.6.0.3")).status).toBe(200);
    expect((await signIn({ email: taken.email, password: "another password entirely" }, "10.6.0.3")).status).toBe(401);
  });

  it("takes new accounts by invitation only with SIGN_UP=invite_only, besides the first account", async () => {
    const db = await getDb();
    process.env.SIGN_UP = "invite_only";
    resetEnvCache();
    onTestFinished(() => {
      delete process.env.SIGN_UP;
      resetEnvCache();
    });
    // A default organization nobody has joined yet: its first account may sign up.
    await db.update(organizations).set({ isDefault: false }).where(eq(organizations.isDefault, true));
    const { org } = await ensureDefaultOrganization({ ctx: await systemCtx() });
    const first = newAccount("First");
    await signUp(first, "10.7.0.1");
    expect(await membershipOf(db, await userIdOf(first.email))).toMatchObject({ orgId: org.id, role: "owner" });

    // A stranger is answered as any sign-up is, and no account is made.
    const stranger = newAccount("Stranger");
    const refused = await authPost("/sign-up/email", stranger, { address: "10.7.0.2" });
    expect(refused.status).toBe(200);
    expect(cookieFrom(refused)).toBe("");
    expect(await db.select().from(users).where(eq(users.email, stranger.email))).toEqual([]);
    expect((await signIn(stranger, "10.7.0.3")).status).toBe(401);

    // Knowing an invited address is not enough: without the invitation's link nobody gets the account, so nobody
    // can take it before the person invited.
    const invited = newAccount("Invited");
    const owner = { ...(await orgCtx(org.id)), actor: { type: "user" as const, id: await userIdOf(first.email) } };
    const { token } = await createInvitation({ ctx: owner, email: invited.email, role: "member" });
    const squatter = { ...invited, password: "a squatter's password" };
    expect((await authPost("/sign-up/email", squatter, { address: "10.7.0.5" })).status).toBe(200);
    expect((await authPost("/sign-up/email", { ...squatter, invitation: "not-the-link" })).status).toBe(200);
    expect(await db.select().from(users).where(eq(users.email, invited.email))).toEqual([]);

    // The person invited, with the link (the sign-up page sends its token), joins.
    const joined = await authPost("/sign-up/email", { ...invited, invitation: token }, { address: "10.7.0.4" });
    expect(joined.status).toBe(200);
    expect(await userIdOf(invited.email)).toMatch(/^usr_/);
    expect((await signIn(invited, "10.7.0.4")).status).toBe(200);
  });

  it("lets exactly one of three simultaneous first sign-ups in with SIGN_UP=invite_only", async () => {
    const db = await getDb();
    process.env.SIGN_UP = "invite_only";
    resetEnvCache();
    onTestFinished(() => {
      delete process.env.SIGN_UP;
      resetEnvCache();
    });
    await db.update(organizations).set({ isDefault: false }).where(eq(organizations.isDefault, true));
    const { org } = await ensureDefaultOrganization({ ctx: await systemCtx() });
    const racers = [newAccount("Racer A"), newAccount("Racer B"), newAccount("Racer C")];
    await Promise.all(racers.map((racer, i) => authPost("/sign-up/email", racer, { address: `10.8.0.${i}` })));
    const made = await db
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(
        inArray(
          users.email,
          racers.map((r) => r.email),
        ),
      );
    // One account, and it owns the default organization; the others were answered as any sign-up and got nothing.
    expect(made).toHaveLength(1);
    expect(await membershipOf(db, made[0]!.id)).toMatchObject({ orgId: org.id, role: "owner" });
    const signedIn = await Promise.all(racers.map((r, i) => signIn(r, `10.8.1.${i}`)));
    expect(signedIn.map((r) => r.status).sort()).toEqual([200, 401, 401]);
  });

  it("lets a first-account claim that never finished be taken after ten minutes, and its own address retry", async () => {
    const db = await getDb();
    process.env.SIGN_UP = "invite_only";
    resetEnvCache();
    onTestFinished(() => {
      delete process.env.SIGN_UP;
      resetEnvCache();
    });
    await db.update(organizations).set({ isDefault: false }).where(eq(organizations.isDefault, true));
    await ensureDefaultOrganization({ ctx: await systemCtx() });
    const t0 = new Date("2026-11-27T10:00:00Z");
    expect(await maySignUp(db, "First@Example.test", null, t0)).toBe(true);
    expect(await maySignUp(db, "other@example.test", null, new Date(t0.getTime() + 9 * 60_000))).toBe(false);
    expect(await maySignUp(db, "first@example.test", null, new Date(t0.getTime() + 9 * 60_000))).toBe(true);
    // The retry renewed the claim: ten minutes count from it.
    expect(await maySignUp(db, "other@example.test", null, new Date(t0.getTime() + 18 * 60_000))).toBe(false);
    expect(await maySignUp(db, "other@example.test", null, new Date(t0.getTime() + 20 * 60_000))).toBe(true);
  });

  it("answers one generic error for a wrong password and for an unknown email", async () => {
    const account = newAccount();
    await signUp(account);
    const wrong = await signIn({ email: account.email, password: "not the password at all" });
    const unknown = await signIn({ email: `nobody-${account.email}`, password: account.password });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect((await wrong.json()).message).toBe((await unknown.json()).message);
  });

  it("limits sign-in attempts per address and per account", async () => {
    const account = newAccount();
    await signUp(account, "10.2.0.1");
    // The clock stands still: no token comes back while the attempts are made, however slow the machine.
    vi.useFakeTimers({ toFake: ["Date"] });
    onTestFinished(() => void vi.useRealTimers());
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      statuses.push((await signIn({ email: account.email, password: "wrong password!" }, "10.2.0.2")).status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    const limited = await signIn({ email: account.email, password: account.password }, "10.2.0.2");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    // Spread over many addresses, one account still gets only its hourly budget (20 by default).
    let last = 0;
    for (let i = 0; i < 12; i++)
      last = (await signIn({ email: account.email, password: "wrong!!!!!!" }, `10.3.0.${i}`)).status;
    expect(last).toBe(429);
    // 24 password hashes (scrypt) take about 4 s on a quiet machine: past the 5 s Stryker's runs allow once loaded.
  }, 30_000);

  it("takes a password only as JSON, which the per-account limit and the audit log read", async () => {
    const account = newAccount();
    await signUp(account, "10.6.0.1");
    const post = (contentType: string, body: string) =>
      authEndpoint(
        new Request(`${ORIGIN}/api/auth/sign-in/email`, {
          method: "POST",
          headers: { "Content-Type": contentType, Origin: ORIGIN, "X-Forwarded-For": "10.6.0.2" },
          body,
        }),
      );
    // better-auth itself signs in from a form body too, out of sight of the limit per account and of the audit log.
    const form = new URLSearchParams({ email: account.email, password: account.password }).toString();
    for (const type of ["application/x-www-form-urlencoded", "text/plain", "application/vnd.x+json"]) {
      const res = await post(type, type === "application/x-www-form-urlencoded" ? form : JSON.stringify(account));
      expect(res.status, type).toBe(415);
      expect(cookieFrom(res), type).toBe("");
    }
    const json = await post("Application/JSON; charset=utf-8", JSON.stringify(account));
    expect(json.status).toBe(200);
  });

  it("refuses an account body with a NUL, a lone surrogate or 33 levels of nesting as a 400, changing nothing", async () => {
    const account = newAccount("Nora Null");
    const cookie = await signUp(account, "10.6.1.1");
    const deep = JSON.parse(`${"[".repeat(40)}${"]".repeat(40)}`) as unknown;
    for (const name of ["a\u0000b", "a\ud800b", deep]) {
      const res = await authPost("/update-user", { name }, { cookie, address: "10.6.1.2" });
      expect(res.status).toBe(400);
      expect((await res.json()).code).toBe("VALIDATION_ERROR");
    }
    const [row] = await (await getDb()).select({ name: users.name }).from(users).where(eq(users.email, account.email));
    expect(row!.name).toBe("Nora Null");
  });

  it("reads a body that starts with a byte-order mark as better-auth does: its NUL refused, its email counted", async () => {
    const account = newAccount("Bo Mark");
    const cookie = await signUp(account, "10.6.3.1");
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      authEndpoint(
        new Request(`${ORIGIN}/api/auth${path}`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Origin: ORIGIN, "X-Forwarded-For": "10.6.3.2", ...headers },
          body: "\ufeff" + JSON.stringify(body),
        }),
      );
    const named = await post("/update-user", { name: "a\u0000b" }, { Cookie: cookie });
    expect(named.status).toBe(400);
    expect((await named.json()).code).toBe("VALIDATION_ERROR");
    // The account's hourly budget (20) is spent by such attempts too, from many addresses, written in any case.
    vi.useFakeTimers({ toFake: ["Date"] });
    onTestFinished(() => void vi.useRealTimers());
    const wrong = { email: ` ${account.email.toUpperCase()} `, password: "wrong password!" };
    let last = 0;
    for (let i = 0; i < 21; i++)
      last = (await post("/sign-in/email", wrong, { "X-Forwarded-For": `10.6.4.${i}` })).status;
    expect(last).toBe(429);
  }, 30_000);

  it("keeps a name to 200 characters at sign-up and on update, and answers a taken email alike", async () => {
    const account = newAccount("Lena Long");
    const cookie = await signUp(account, "10.6.2.1");
    const long = "n".repeat(201);
    const update = await authPost("/update-user", { name: long }, { cookie, address: "10.6.2.2" });
    expect(update.status).toBe(400);
    const [row] = await (await getDb()).select({ name: users.name }).from(users).where(eq(users.email, account.email));
    expect(row!.name).toBe("Lena Long");
    for (const email of [account.email, newAccount().email]) {
      const res = await authPost("/sign-up/email", { ...account, email, name: long }, { address: "10.6.2.3" });
      expect(res.status, email).toBe(400);
    }
    expect((await authPost("/update-user", { name: "n".repeat(200) }, { cookie, address: "10.6.2.2" })).status).toBe(
      200,
    );
  });

  it("refuses an account body over 64 KiB as a 413, declared or not, and still takes one without a body", async () => {
    const cookie = await signUp(newAccount(), "10.6.3.1");
    const big = JSON.stringify({ x: "a".repeat(64 * 1024) });
    const post = (body: BodyInit | null, declared: boolean) => {
      const headers = new Headers({ "Content-Type": "application/json", Origin: ORIGIN, Cookie: cookie });
      if (declared && typeof body === "string") headers.set("Content-Length", String(body.length));
      return authEndpoint(new Request(`${ORIGIN}/api/auth/sign-out`, { method: "POST", headers, body }));
    };
    expect((await post(big, true)).status).toBe(413);
    const stream = new Blob([big]).stream();
    const undeclared = await authEndpoint(
      new Request(`${ORIGIN}/api/auth/sign-out`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: ORIGIN, Cookie: cookie },
        body: stream,
        duplex: "half",
      } as RequestInit),
    );
    expect(undeclared.status).toBe(413);
    expect((await post(null, false)).status).toBe(200);
  });

  it("limits every endpoint that checks a password, however its path is written, before hashing", async () => {
    const account = newAccount();
    const cookie = await signUp(account, "10.4.0.1");
    // Small budgets, so the test makes few scrypt hashes: 3 a minute per address, 5 an hour per account.
    process.env.SIGN_IN_RATE_LIMIT_PER_MINUTE = "3";
    process.env.SIGN_IN_RATE_LIMIT_PER_EMAIL_HOUR = "5";
    resetEnvCache();
    vi.useFakeTimers({ toFake: ["Date"] });
    onTestFinished(() => {
      delete process.env.SIGN_IN_RATE_LIMIT_PER_MINUTE;
      delete process.env.SIGN_IN_RATE_LIMIT_PER_EMAIL_HOUR;
      resetEnvCache();
      vi.useRealTimers();
    });
    const guess = { password: "a wrong guess!", currentPassword: "a wrong guess!", newPassword: "whatever new one" };
    for (const path of [
      "/verify-password",
      "/change-password",
      "/verify-password/",
      "/Verify-Password",
      "//verify-password",
    ]) {
      resetSignInLimits();
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await authPost(path, guess, { cookie, address: "10.4.0.2" })).status);
      expect(statuses.slice(0, 3), path).not.toContain(429);
      expect(statuses[3], path).toBe(429);
    }
    // From many addresses, one session still gets only its hourly budget of guesses.
    resetSignInLimits();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await authPost("/verify-password", guess, { cookie, address: `10.5.0.${i}` })).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
  });

  it("signs out: the session's cookie stops working at once", async () => {
    const cookie = await signUp(newAccount());
    const out = await authPost("/sign-out", {}, { cookie });
    expect(out.status).toBe(200);
    const after = await call(listShipments, "GET", "/v1/shipments", { headers: { Cookie: cookie } });
    expect(after.status).toBe(401);
    expect(after.body.errors[0].code).toBe("unauthorized");
  });

  it("changes the password, revoking the other sessions, and the old password no longer signs in", async () => {
    const account = newAccount();
    const first = await signUp(account);
    const second = cookieFrom(await signIn(account));
    const newPassword = `${account.password} v2`;
    const changed = await authPost(
      "/change-password",
      { currentPassword: account.password, newPassword, revokeOtherSessions: true },
      { cookie: second },
    );
    expect(changed.status).toBe(200);
    expect((await call(listShipments, "GET", "/v1/shipments", { headers: { Cookie: first } })).status).toBe(401);
    expect((await signIn(account)).status).toBe(401);
    expect((await signIn({ email: account.email, password: newPassword })).status).toBe(200);
  });

  it("signs out every other session on a password change, whatever the client asks", async () => {
    for (const asked of [{ revokeOtherSessions: false }, {}]) {
      const account = newAccount();
      const first = await signUp(account);
      const second = cookieFrom(await signIn(account));
      const newPassword = `${account.password} v2`;
      const changed = await authPost(
        "/change-password",
        { currentPassword: account.password, newPassword, ...asked },
        { cookie: second },
      );
      expect(changed.status).toBe(200);
      const other = await call(listShipments, "GET", "/v1/shipments", { headers: { Cookie: first } });
      expect(other.status, JSON.stringify(asked)).toBe(401);
      // The person who changed it stays signed in, on the session the answer set.
      const current = cookieFrom(changed) || second;
      expect((await call(listShipments, "GET", "/v1/shipments", { headers: { Cookie: current } })).status).toBe(200);
    }
  });

  it("never answers a raw session token: sign-in, get-session, list-sessions, change-password", async () => {
    const account = newAccount();
    const first = await signUp(account);
    const signedIn = await signIn(account);
    const cookie = cookieFrom(signedIn);
    const tokens = [first, cookie].map((c) => decodeURIComponent(c.split("=")[1]!).split(".")[0]!);
    const answers = [
      signedIn,
      await authEndpoint(new Request(`${ORIGIN}/api/auth/get-session`, { headers: { Cookie: cookie } })),
      await authEndpoint(new Request(`${ORIGIN}/api/auth/list-sessions`, { headers: { Cookie: cookie } })),
      await authPost(
        "/change-password",
        { currentPassword: account.password, newPassword: `${account.password} v2` },
        { cookie },
      ),
    ];
    for (const answer of answers) {
      expect(answer.status, answer.url).toBe(200);
      const text = await answer.text();
      expect(text.length).toBeGreaterThan(2);
      for (const token of tokens) expect(text, answer.url).not.toContain(token);
      expect(text).not.toMatch(/"token"\s*:\s*"/);
    }
    // The cookie still carries the session: that is where the browser keeps it.
    expect(cookieFrom(answers[3]!)).toMatch(/shipwell\.session_token=/);
  });

  it("lists a person's sessions and revokes one", async () => {
    const account = newAccount();
    const first = await signUp(account);
    const second = cookieFrom(await signIn(account));
    const list = await authEndpoint(new Request(`${ORIGIN}/api/auth/list-sessions`, { headers: { Cookie: second } }));
    const sessions = (await list.json()) as { token: string }[];
    expect(sessions).toHaveLength(2);
    const firstToken = decodeURIComponent(first.split("=")[1]!).split(".")[0]!;
    const revoked = await authPost("/revoke-session", { token: firstToken }, { cookie: second });
    expect(revoked.status).toBe(200);
    expect((await call(listShipments, "GET", "/v1/shipments", { headers: { Cookie: first } })).status).toBe(401);
    expect((await call(listShipments, "GET", "/v1/shipments", { headers: { Cookie: second } })).status).toBe(200);
  });
});

describe("the API with a session", () => {
  it("scopes a session to its organization, like a key", async () => {
    const other = await makeOrg("Someone else");
    await call(createShipment, "POST", "/v1/shipments", { key: other.key, body: rateRequest() });
    const cookie = await signUp(newAccount());
    const mine = await call(listShipments, "GET", "/v1/shipments", { headers: { Cookie: cookie } });
    expect(mine.body.count).toBe(0);
  });

  it("refuses a cookie-authenticated write without this site's Origin, and changes nothing", async () => {
    const cookie = await signUp(newAccount());
    for (const origin of [undefined, "https://evil.example", "null"]) {
      const headers: Record<string, string> = { Cookie: cookie };
      if (origin) headers.Origin = origin;
      const res = await call(createShipment, "POST", "/v1/shipments", { headers, body: rateRequest() });
      expect(res.status).toBe(403);
      expect(res.body.errors[0].code).toBe("forbidden");
    }
    expect((await call(listShipments, "GET", "/v1/shipments", { headers: { Cookie: cookie } })).body.count).toBe(0);
    const ok = await call(createShipment, "POST", "/v1/shipments", {
      headers: { Cookie: cookie, Origin: ORIGIN },
      body: rateRequest(),
    });
    expect(ok.status).toBe(201);
    expect(ok.headers.get("shipwell-version")).toBe("2026-11");
  });

  it("trusts only this site's origin for better-auth's callbacks and cookie-authenticated writes", async () => {
    const account = newAccount();
    const cookie = await signUp(account);
    // A callback to another site is refused, not followed; a path on this site is fine.
    for (const callbackURL of ["http://evil.test", "https://evil.test/x", "//evil.test", "http://localhost:8080/"]) {
      const res = await authPost("/sign-in/email", { ...account, callbackURL });
      expect(res.status, callbackURL).toBe(403);
    }
    expect((await authPost("/sign-in/email", { ...account, callbackURL: "/shipments" })).status).toBe(200);
    // Another site, another scheme or another port of this host, writing with the person's cookie.
    for (const origin of ["http://evil.test", "https://localhost", "http://localhost:8080"]) {
      const res = await authPost("/update-user", { name: "Mallory" }, { cookie, origin });
      expect(res.status, origin).toBe(403);
    }
    // A Host of `*` would make this site's origin `http://*`, which better-auth reads as trusting every site.
    for (const host of ["*", "*.test"]) {
      const res = await authPost("/update-user", { name: "Mallory" }, { cookie, origin: "http://evil.test", host });
      expect(res.status, host).toBe(403);
    }
    const db = await getDb();
    const [row] = await db.select({ name: users.name }).from(users).where(eq(users.email, account.email));
    expect(row!.name).toBe(account.name);
    expect((await authPost("/update-user", { name: "Ada" }, { cookie })).status).toBe(200);
  });

  it("refuses a cookie-authenticated /v1 write from this host on another scheme or port", async () => {
    const cookie = await signUp(newAccount());
    for (const origin of ["https://localhost", "http://localhost:8080", "http://localhost.evil.test"]) {
      const res = await call(createShipment, "POST", "/v1/shipments", {
        headers: { Cookie: cookie, Origin: origin },
        body: rateRequest(),
      });
      expect(res.status, origin).toBe(403);
    }
    expect((await call(listShipments, "GET", "/v1/shipments", { headers: { Cookie: cookie } })).body.count).toBe(0);
  });

  it("remembers the ship-from of the last shipment a person created", async () => {
    const account = newAccount();
    const cookie = await signUp(account);
    const request = rateRequest();
    await call(createShipment, "POST", "/v1/shipments", { headers: { Cookie: cookie, Origin: ORIGIN }, body: request });
    const db = await getDb();
    const [row] = await db
      .select()
      .from(memberships)
      .where(eq(memberships.userId, await userIdOf(account.email)));
    expect((row!.lastShipFrom as { postal_code: string }).postal_code).toBe(request.shipper.postal_code);
  });

  it("offers the remembered ship-from back to that person only, and only while it still reads as an address", async () => {
    const account = newAccount();
    await signUp(account);
    const userId = await userIdOf(account.email);
    const db = await getDb();
    const membership = (await membershipOf(db, userId))!;
    const base = await orgCtx(membership.orgId);
    const person = { ...base, actor: { type: "user" as const, id: userId } };
    const viaKey = { ...base, actor: { type: "api_key" as const, id: "key_x" } };
    const shipper = RatingAddressInput.parse(rateRequest().shipper);
    await rememberShipFrom(viaKey, shipper); // an API key is nobody's ship-from
    expect(await lastShipFrom(person)).toBeNull();
    // Before their first label, a new label starts from the organization's default ship-from, if it has one.
    expect(await startingShipFrom(person)).toBeNull();
    const warehouse = { ...shipper, company_name: "Acme Warehouse", postal_code: "78701", city: "Austin" };
    await createSavedAddress({
      ctx: base,
      input: SavedAddressCreate.parse({ ...warehouse, label: "Warehouse", is_default_sender: true }),
    });
    expect(await startingShipFrom(person)).toMatchObject({ company_name: "Acme Warehouse", postal_code: "78701" });
    expect(await startingShipFrom(person)).not.toHaveProperty("label");
    await rememberShipFrom(person, shipper);
    expect(await lastShipFrom(person)).toMatchObject({ postal_code: shipper.postal_code });
    // Then from the one they used last.
    expect(await startingShipFrom(person)).toMatchObject({ postal_code: shipper.postal_code });
    expect(await lastShipFrom(viaKey)).toBeNull();
    await db
      .update(memberships)
      .set({ lastShipFrom: { postal_code: 12 } })
      .where(eq(memberships.userId, userId));
    expect(await lastShipFrom(person)).toBeNull();
    // In an organization they do not belong to (removed while signed in), they have none.
    const elsewhere = await makeOrg("Elsewhere");
    expect(await lastShipFrom({ ...(await orgCtx(elsewhere.orgId)), actor: person.actor })).toBeNull();
  });

  it("answers 403 forbidden with the role needed when a member asks for API keys; an owner may", async () => {
    const account = newAccount();
    const cookie = await signUp(account);
    const owner = await call(listKeys, "GET", "/v1/api_keys", { headers: { Cookie: cookie } });
    expect(owner.status).toBe(200);
    // Added to a company's organization as a member, they act there from their next request.
    const company = await makeOrg("Company");
    const added = await addMember({
      ctx: await systemCtx(),
      orgId: company.orgId,
      email: account.email,
      role: "member",
    });
    expect(added.role).toBe("member");
    const member = await call(listKeys, "GET", "/v1/api_keys", { headers: { Cookie: cookie } });
    expect(member.status).toBe(403);
    expect(member.body.errors[0]).toMatchObject({ code: "forbidden", field: null });
    expect(member.body.errors[0].message).toMatch(/owner or admin/);
    expect((await call(listShipments, "GET", "/v1/shipments", { headers: { Cookie: cookie } })).status).toBe(200);
  });

  it("judges a request by its API key when it carries both a key and a cookie", async () => {
    const org = await makeOrg("Key holder");
    const cookie = await signUp(newAccount());
    const res = await call(createShipment, "POST", "/v1/shipments", {
      key: org.key,
      headers: { Cookie: cookie },
      body: rateRequest(),
    });
    expect(res.status).toBe(201);
    const db = await getDb();
    const [named] = await db
      .select({ name: organizations.name })
      .from(organizations)
      .where(eq(organizations.id, org.orgId));
    expect(named!.name).toBe("Key holder");
    const keyList = await call(listShipments, "GET", "/v1/shipments", { key: org.key, headers: { Cookie: cookie } });
    expect(keyList.body.count).toBe(1);
  });
});

describe("members add", () => {
  it("refuses an email nobody signed up with", async () => {
    const org = await makeOrg("Company");
    await expect(
      addMember({ ctx: await systemCtx(), orgId: org.orgId, email: "nobody@example.test", role: "member" }),
    ).rejects.toThrow(/signs up first/);
  });
});

describe("a person's sessions", () => {
  it("are listed live only, newest first, the current one marked, never their tokens", async () => {
    const account = newAccount();
    await signUp(account);
    expect((await signIn(account)).status).toBe(200);
    const userId = await userIdOf(account.email);
    const db = await getDb();
    const rows = await db.select().from(sessions).where(eq(sessions.userId, userId));
    expect(rows).toHaveLength(2);
    // Made a second apart, so "newest first" has something to order.
    const [older, newer] = rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    await db
      .update(sessions)
      .set({ createdAt: new Date(newer!.createdAt.getTime() - 1000) })
      .where(eq(sessions.id, older!.id));
    const listed = await sessionsOf(db, userId, newer!.id);
    expect(listed.map((s) => [s.id, s.current])).toEqual([
      [newer!.id, true],
      [older!.id, false],
    ]);
    expect(Object.keys(listed[0]!).sort()).toEqual(["createdAt", "current", "expiresAt", "id", "userAgent"]);

    await db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.id, older!.id));
    expect((await sessionsOf(db, userId, newer!.id)).map((s) => s.id)).toEqual([newer!.id]);
  });

  it("know no one without a session cookie, and no one for a cookie that is not a session", async () => {
    const db = await getDb();
    expect(await signedInUser(db, new Headers())).toBeNull();
    expect(await signedInUser(db, new Headers({ Cookie: "other=1" }))).toBeNull();
    const forged = "shipwell.session_token=forged.signature";
    expect(await signedInUser(db, new Headers({ Cookie: forged }))).toBeNull();
  });
});
