import "server-only";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { invitations, memberships, organizations } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/tx";
import { env } from "@/lib/env";

/**
 * Whether an account may be made for `email` (SIGN_UP, docs/api.md "Accounts and roles"). `open`: always.
 * `invite_only`: for the first account, the one that will own the default organization (nobody belongs to it yet),
 * and for an address with an open invitation (pending, not expired) to any organization.
 */
export async function maySignUp(db: DbOrTx, email: string, now = new Date()): Promise<boolean> {
  if (env().SIGN_UP === "open") return true;
  const [invited] = await db
    .select({ one: sql`1` })
    .from(invitations)
    .where(
      and(
        eq(invitations.email, email.trim().toLowerCase()),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
        gt(invitations.expiresAt, now),
      ),
    )
    .limit(1);
  if (invited) return true;
  const [unclaimed] = await db
    .select({ one: sql`1` })
    .from(organizations)
    .where(
      and(
        eq(organizations.isDefault, true),
        sql`not exists (select 1 from ${memberships} where ${memberships.orgId} = ${organizations.id})`,
      ),
    )
    .limit(1);
  return Boolean(unclaimed);
}
