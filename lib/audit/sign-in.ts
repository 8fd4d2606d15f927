import "server-only";
import { eq } from "drizzle-orm";
import { withTransaction, type RequestOrigin } from "@/lib/context";
import { memberships, users } from "@/lib/db/schema";
import type { Db } from "@/lib/db/tx";
import { recordAudit } from "./record";

/**
 * A sign-in attempt, in the audit log of every organization the account belongs to: `user.signed_in` with the person
 * as actor, or `user.sign_in_failed` with an anonymous actor (a wrong password proves nobody). An address that has no
 * account belongs to no organization and is recorded nowhere (the sign-in limits still count it). better-auth writes
 * the session in its own statements, so this row follows the sign-in rather than sharing its transaction.
 */
export async function recordSignIn({
  db,
  email,
  succeeded,
  origin,
  now = new Date(),
}: {
  db: Db;
  email: string;
  succeeded: boolean;
  origin: RequestOrigin;
  now?: Date;
}): Promise<void> {
  const rows = await db
    .select({ userId: users.id, orgId: memberships.orgId })
    .from(users)
    .innerJoin(memberships, eq(memberships.userId, users.id))
    .where(eq(users.email, email.trim().toLowerCase()));
  if (rows.length === 0) return;
  await withTransaction({ db }, async ({ db: tx }) => {
    for (const { userId, orgId } of rows) {
      await recordAudit(
        { db: tx, org: { id: orgId }, actor: succeeded ? { type: "user", id: userId } : { type: "anonymous" }, origin },
        { action: succeeded ? "user.signed_in" : "user.sign_in_failed", resourceId: userId },
        now,
      );
    }
  });
}
