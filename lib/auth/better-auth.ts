import "server-only";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthMiddleware, isAPIError } from "better-auth/api";
import { eq } from "drizzle-orm";
import { recordAccountChange } from "@/lib/audit/account";
import { changedFields, type AuditEntry } from "@/lib/audit/record";
import { requestOrigin } from "@/lib/audit/request-origin";
import { derivedSecret } from "@/lib/connections/crypto";
import { accounts, sessions, users, verifications } from "@/lib/db/schema";
import { newId, type IdKind } from "@/lib/db/ids";
import type { Db } from "@/lib/db/tx";
import { env, isEmbedded } from "@/lib/env";
import { log } from "@/lib/log";
import { placeNewUser } from "./memberships";
import { SESSION_COOKIE_PREFIX } from "./session-cookie";
import { maySignUp } from "./sign-up-policy";
import { siteOrigins } from "./site-origin";

/** docs/api.md, "Accounts and roles": how long a session lasts, and how often its expiry slides forward. */
const SESSION_LIFETIME_SECONDS = 7 * 24 * 3600;
const SESSION_REFRESH_SECONDS = 24 * 3600;
/** The sign-up form's own limit (components/auth/auth-form.tsx). */
const MAX_NAME_LENGTH = 200;
const ID_KINDS: Record<string, IdKind> = {
  user: "user",
  session: "session",
  account: "account",
  verification: "verification",
};

/** The audit entry of an account endpoint that succeeded; null for those that change nothing of the account. */
function accountChangeOf(path: string, body: unknown): Pick<AuditEntry, "action" | "summary"> | null {
  const sent = (body ?? {}) as Record<string, unknown>;
  switch (path) {
    case "/change-password":
      return {
        action: "user.password_changed",
        summary: { other_sessions_revoked: sent.revokeOtherSessions === true },
      };
    case "/update-user":
      // The fields better-auth sets (it ignores any other): their names, never what they were set to.
      return { action: "user.updated", summary: { fields: changedFields({ name: sent.name, image: sent.image }) } };
    case "/revoke-session":
      return { action: "user.sessions_revoked", summary: { sessions: "one" } };
    case "/revoke-other-sessions":
      return { action: "user.sessions_revoked", summary: { sessions: "others" } };
    case "/revoke-sessions":
      return { action: "user.sessions_revoked", summary: { sessions: "all" } };
    default:
      return null;
  }
}

/** revoke-session answers alike when its token names none of the person's sessions: then the session is still there. */
async function revokedNothing(db: Db, body: unknown): Promise<boolean> {
  const token = (body as { token?: unknown } | undefined)?.token;
  if (typeof token !== "string") return true;
  const [left] = await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.token, token)).limit(1);
  return left !== undefined;
}

function configure(db: Db) {
  const { PUBLIC_URL, TRUST_PROXY, NODE_ENV } = env();
  return betterAuth({
    appName: "Shipwell",
    secret: derivedSecret("session cookies"),
    // Without PUBLIC_URL each request's own origin is its base. Trusted (for the Origin of a write with a cookie, and
    // for callbackURL and the like) are this site's origins only, scheme and port included: a dynamic base with
    // `allowedHosts: ["*"]` would trust every http and https origin.
    baseURL: PUBLIC_URL,
    trustedOrigins: (request) => (request ? siteOrigins(request) : []),
    basePath: "/api/auth",
    database: drizzleAdapter(db, {
      provider: "pg",
      usePlural: true,
      schema: { users, sessions, accounts, verifications },
    }),
    emailAndPassword: {
      enabled: true,
      // Passwords are hashed with scrypt (N=16384, r=16: 32 MiB per hash), better-auth's default, memory-hard.
      minPasswordLength: 10,
      maxPasswordLength: 128,
      // A sign-up answers the same whether the email is new, taken or (SIGN_UP=invite_only) not invited: better-auth
      // then answers a taken address with a made-up user after hashing the password anyway, and signs nobody in, so
      // the page signs in next with the same password (components/auth/auth-form.tsx).
      autoSignIn: false,
      revokeSessionsOnPasswordReset: true,
    },
    session: {
      expiresIn: SESSION_LIFETIME_SECONDS,
      updateAge: SESSION_REFRESH_SECONDS,
      // Every request reads the session row, so a revoked session stops working at once.
      cookieCache: { enabled: false },
    },
    // Sign-in attempts are limited in app/api/auth (per client address as our front door sees it, and per email).
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    advanced: {
      cookiePrefix: SESSION_COOKIE_PREFIX,
      useSecureCookies: PUBLIC_URL ? PUBLIC_URL.startsWith("https://") : NODE_ENV === "production" && !isEmbedded(),
      trustedProxyHeaders: TRUST_PROXY > 0,
      // better-auth skips its origin and callback checks when NODE_ENV is "test"; they must hold, and be tested, there too.
      disableOriginCheck: false,
      // An address from a header is the client's to write; sessions keep the user agent only.
      ipAddress: { disableIpTracking: true },
      database: { generateId: ({ model }) => newId(ID_KINDS[model] ?? "verification") },
    },
    // better-auth's own messages may quote what a client sent (an email): only their level and a fixed text reach our logs.
    logger: {
      log: (level, message) => {
        if (level === "error")
          log().error({ msg: "auth error", detail: message.slice(0, 80).replace(/\S+@\S+/g, "…") });
      },
    },
    hooks: {
      // A password change signs out every other session (docs/api.md, "Sessions"), whatever the client asked: whoever
      // changes a password because it leaked must not have to remember to tick a box.
      before: createAuthMiddleware(async (ctx) => {
        // A name is shown to teammates (Settings → Team, the audit log, once per row): one of 20 MB made those pages
        // answer hundreds of MB. Checked here, before sign-up looks the email up, so it answers alike for any email.
        if (ctx.path === "/sign-up/email" || ctx.path === "/update-user") {
          const name = (ctx.body as { name?: unknown } | undefined)?.name;
          if (typeof name === "string" && name.length > MAX_NAME_LENGTH)
            throw new APIError("BAD_REQUEST", { message: `name must be at most ${MAX_NAME_LENGTH} characters` });
        }
        if (ctx.path !== "/change-password") return;
        return { context: { body: { ...(ctx.body as object), revokeOtherSessions: true } } };
      }),
      // A person's changes to their own account, in the audit log. better-auth writes them in its own statements, so
      // the row cannot share their transaction: it is written here, once the endpoint has succeeded (a refused one
      // left nothing to record), and a failure to write it is logged without changing the answer. delete-user is not
      // enabled (it answers 404); enabling it needs its row written before the account's memberships are deleted.
      after: createAuthMiddleware(async (ctx) => {
        const change = accountChangeOf(ctx.path, ctx.body);
        const userId = ctx.context.session?.user.id;
        if (!change || !userId || isAPIError(ctx.context.returned)) return;
        if (ctx.path === "/revoke-session" && (await revokedNothing(db, ctx.body))) return;
        const origin = ctx.headers ? requestOrigin(ctx.headers) : undefined;
        // lib/api/auth-endpoint.ts set the request's id on every POST it passes on.
        const requestId = ctx.headers?.get("x-request-id") ?? undefined;
        await recordAccountChange({ db, userId, ...change, origin, requestId }).catch((err: unknown) =>
          log().error({ msg: "could not record an account change in the audit log", err }),
        );
      }),
    },
    databaseHooks: {
      user: {
        create: {
          // Refused as FORBIDDEN, which better-auth answers as it answers a taken address.
          // The invitation's token comes in the sign-up's body (components/auth/auth-form.tsx), beside the fields
          // better-auth reads; under SIGN_UP=invite_only it is what lets an invited address in.
          before: async (user, ctx) => {
            const invitation = (ctx?.body as { invitation?: unknown } | undefined)?.invitation;
            if (!(await maySignUp(db, user.email, typeof invitation === "string" ? invitation : null)))
              throw new APIError("FORBIDDEN", { message: "Sign-up is by invitation." });
          },
          // Its row in the audit log names the sign-up's client (better-auth passes the request's context).
          after: async (user, ctx) =>
            void (await placeNewUser(
              db,
              user,
              ctx?.headers && requestOrigin(ctx.headers),
              ctx?.headers?.get("x-request-id") ?? undefined,
            )),
        },
      },
    },
  });
}

export type Auth = ReturnType<typeof configure>;

// One instance per database handle (tests open several).
const instances = new WeakMap<Db, Auth>();

export function authFor(db: Db): Auth {
  let auth = instances.get(db);
  if (!auth) instances.set(db, (auth = configure(db)));
  return auth;
}
