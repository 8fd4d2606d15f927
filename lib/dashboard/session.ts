import "server-only";
import { cache } from "react";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import type { DomainContext } from "@/lib/context";
import type { Role } from "@/lib/auth/roles";
import { signedInUser } from "@/lib/auth/sessions";
import { requestOrigin } from "@/lib/audit/request-origin";
import { getDb } from "@/lib/db/client";
import { isDatabaseDown } from "@/lib/db/down";
import { log } from "@/lib/log";
import { randomHex128 } from "@/lib/random";
import { safeNext } from "./next-path";

/** The signed-in user, their organization and role, and a domain context acting as them. */
export interface DashboardSession {
  user: { id: string; name: string; email: string };
  sessionId: string;
  org: { id: string; name: string };
  role: Role;
  ctx: DomainContext;
}

/** Set by proxy.ts on every page request, so a page can send a signed-out visit back to where it was going. */
const PATH_HEADER = "x-shipwell-path";

/** The session of the request being rendered, or null. Read once per render however many components ask. */
export const currentSession = cache(async (): Promise<DashboardSession | null> => {
  const db = await getDb();
  const asked = await headers();
  const signedIn = await signedInUser(db, asked);
  if (!signedIn) return null;
  const { user, membership, sessionId } = signedIn;
  const requestId = `page_${randomHex128()}`;
  return {
    user,
    sessionId,
    org: { id: membership.orgId, name: membership.orgName },
    role: membership.role,
    ctx: {
      db,
      org: { id: membership.orgId },
      actor: { type: "user", id: user.id },
      origin: requestOrigin(asked),
      requestId,
      log: log().child({ request_id: requestId, org_id: membership.orgId }),
    },
  };
});

/**
 * Every dashboard page starts here: the session, or a redirect to sign-in that comes back to this page. proxy.ts
 * already turned away visits without a cookie; this also catches expired and revoked sessions.
 */
export async function requireSession(): Promise<DashboardSession> {
  const next = safeNext((await headers()).get(PATH_HEADER));
  let session: DashboardSession | null;
  try {
    session = await currentSession();
  } catch (err) {
    // The database went away under this render: the circuit is open now, so the same visit again is answered 503
    // by proxy.ts at once (a page cannot set its own status). Anything else is the error page's business.
    if (isDatabaseDown()) redirect(next);
    throw err;
  }
  if (session) return session;
  redirect(`/sign-in?next=${encodeURIComponent(next)}`);
}
