import "server-only";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthMiddleware } from "better-auth/api";
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
const ID_KINDS: Record<string, IdKind> = {
  user: "user",
  session: "session",
  account: "account",
  verification: "verification",
};

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
        if (ctx.path !== "/change-password") return;
        return { context: { body: { ...(ctx.body as object), revokeOtherSessions: true } } };
      }),
    },
    databaseHooks: {
      user: {
        create: {
          // Refused as FORBIDDEN, which better-auth answers as it answers a taken address.
          before: async (user) => {
            if (!(await maySignUp(db, user.email)))
              throw new APIError("FORBIDDEN", { message: "Sign-up is by invitation." });
          },
          after: async (user) => void (await placeNewUser(db, user)),
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
