import "server-only";
import { and, desc, eq, gt } from "drizzle-orm";
import { requestOrigin } from "@/lib/audit/request-origin";
import { DatabaseDownError } from "@/lib/db/circuit";
import { isDatabaseDown } from "@/lib/db/down";
import { sessions } from "@/lib/db/schema";
import type { Db, DbOrTx } from "@/lib/db/tx";
import { hasSessionCookie } from "./session-cookie";
import { membershipOf, placeNewUser, type Membership } from "./memberships";

export interface SignedIn {
  user: { id: string; name: string; email: string };
  sessionId: string;
  membership: Membership;
}

/**
 * The person a request's session cookie belongs to, with the organization they act in; null when the cookie is
 * missing, forged, expired or revoked. A user whose organization was never recorded (the sign-up hook failed after
 * the account was written) is placed now, so an account never ends up belonging nowhere. While the database is away
 * this throws (DatabaseDownError, answered 503) rather than answer "nobody": better-auth answers a session it could
 * not read as no session, which would send a signed-in clerk to sign in.
 */
export async function signedInUser(db: Db, headers: Headers): Promise<SignedIn | null> {
  if (!hasSessionCookie(headers.get("cookie"))) return null;
  // Loaded on the first request with a session cookie: an API-key request (or an API process that never sees a
  // browser) does not pay for better-auth's import, over a second of a cold start.
  const { authFor } = await import("./better-auth");
  const found = await authFor(db).api.getSession({ headers, query: { disableCookieCache: true } });
  if (!found) {
    if (isDatabaseDown()) throw new DatabaseDownError();
    return null;
  }
  const { user, session } = found;
  const membership = (await membershipOf(db, user.id)) ?? (await placeNewUser(db, user, requestOrigin(headers)));
  return { user: { id: user.id, name: user.name, email: user.email }, sessionId: session.id, membership };
}

export interface SessionSummary {
  id: string;
  createdAt: Date;
  expiresAt: Date;
  userAgent: string | null;
  current: boolean;
}

/** A person's live sessions, newest first, for the account page (never their tokens). */
export async function sessionsOf(db: DbOrTx, userId: string, currentId: string): Promise<SessionSummary[]> {
  const rows = await db
    .select({
      id: sessions.id,
      createdAt: sessions.createdAt,
      expiresAt: sessions.expiresAt,
      userAgent: sessions.userAgent,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, new Date())))
    .orderBy(desc(sessions.createdAt));
  return rows.map((row) => ({ ...row, current: row.id === currentId }));
}
