import "server-only";
import { and, eq, isNull, ne } from "drizzle-orm";
import { recordAudit, type AuditContext } from "@/lib/audit/record";
import { invitations } from "@/lib/db/schema";

/** Why a person's other invitations closed, in each one's `invitation.revoked` row. */
export type ClosedBecause = "member_added" | "member_removed" | "invitation_accepted";

/**
 * Revokes the organization's open invitations to `email` (all but `except`, the one being accepted), each with its
 * `invitation.revoked` row naming `because`. Run in the transaction that makes the person join or leave (`ctx.db`,
 * acting for `ctx.org`): once they are in, an older link would only change their role behind the team's back; once
 * they are removed, it would bring them back. Another organization's invitations are that organization's business
 * and stay as they are.
 */
export async function closeOpenInvitations(
  ctx: AuditContext,
  { email, except, because, now }: { email: string; except?: string; because: ClosedBecause; now: Date },
): Promise<void> {
  const closed = await ctx.db
    .update(invitations)
    .set({ revokedAt: now })
    .where(
      and(
        eq(invitations.orgId, ctx.org.id),
        eq(invitations.email, email.trim().toLowerCase()),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
        except ? ne(invitations.id, except) : undefined,
      ),
    )
    .returning({ id: invitations.id, role: invitations.role });
  await recordAudit(
    ctx,
    closed.map((row) => ({ action: "invitation.revoked", resourceId: row.id, summary: { role: row.role, because } })),
    now,
  );
}
