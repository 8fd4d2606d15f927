import "server-only";
import { and, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import { invitations, memberships, organizations } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/tx";
import { env } from "@/lib/env";
import { invitationTokenHash } from "./invitations";

// A first-account claim whose sign-up never finished (the account was not written) may be taken by another address
// after this long; the same address may always take it again.
const CLAIM_STALE_MS = 10 * 60_000;

/**
 * Whether an account may be made for `email` (SIGN_UP, docs/api.md "Accounts and roles"). `open`: always.
 * `invite_only`: for an address with an open invitation (pending, not expired) to any organization, by whoever holds
 * that invitation's link (`invitation`, its token: the sign-up page sends it), and for the first account, the one that
 * will own the default organization (nobody belongs to it yet). Knowing the invited address is not enough: whoever
 * signed up with it first would keep the invitee out of the account the invitation was for. Being the first account
 * is a claim written on the default organization's row, one UPDATE: of two simultaneous first sign-ups the second
 * waits on the row lock, then finds the claim taken, so only one gets in (placeNewUser gives the default
 * organization to the claimant only).
 */
export async function maySignUp(
  db: DbOrTx,
  email: string,
  invitation: string | null = null,
  now = new Date(),
): Promise<boolean> {
  if (env().SIGN_UP === "open") return true;
  const address = email.trim().toLowerCase();
  if (invitation !== null) {
    const [invited] = await db
      .select({ one: sql`1` })
      .from(invitations)
      .where(
        and(
          eq(invitations.tokenHash, invitationTokenHash(invitation)),
          eq(invitations.email, address),
          isNull(invitations.acceptedAt),
          isNull(invitations.revokedAt),
          gt(invitations.expiresAt, now),
        ),
      )
      .limit(1);
    if (invited) return true;
  }
  const claimed = await db
    .update(organizations)
    .set({ firstOwnerEmail: address, firstOwnerClaimedAt: now })
    .where(
      and(
        eq(organizations.isDefault, true),
        sql`not exists (select 1 from ${memberships} where ${memberships.orgId} = ${organizations.id})`,
        or(
          isNull(organizations.firstOwnerEmail),
          eq(organizations.firstOwnerEmail, address),
          lt(organizations.firstOwnerClaimedAt, new Date(now.getTime() - CLAIM_STALE_MS)),
        ),
      ),
    )
    .returning({ id: organizations.id });
  return claimed.length > 0;
}
