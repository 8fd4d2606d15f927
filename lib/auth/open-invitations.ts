import "server-only";
import { and, eq, isNull, ne } from "drizzle-orm";
import { invitations } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/tx";

/**
 * Revokes the organization's open invitations to `email` (all but `except`, the one being accepted). Run in the
 * transaction that makes the person join or leave: once they are in, an older link would only change their role
 * behind the team's back; once they are removed, it would bring them back. Another organization's invitations are
 * that organization's business and stay as they are.
 */
export async function closeOpenInvitations(
  db: DbOrTx,
  { orgId, email, except, now }: { orgId: string; email: string; except?: string; now: Date },
): Promise<void> {
  await db
    .update(invitations)
    .set({ revokedAt: now })
    .where(
      and(
        eq(invitations.orgId, orgId),
        eq(invitations.email, email.trim().toLowerCase()),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
        except ? ne(invitations.id, except) : undefined,
      ),
    );
}
