import "server-only";
import { eq } from "drizzle-orm";
import { withTransaction, type Actor, type RequestOrigin } from "@/lib/context";
import { memberships, users } from "@/lib/db/schema";
import type { Db } from "@/lib/db/tx";
import { recordAudit, type AuditContext, type AuditEntry } from "./record";

/** The request an account's row came from: its client, and its id (the `X-Request-ID` /api/auth answered with). */
interface AccountRequest {
  origin?: RequestOrigin;
  requestId?: string;
}

/**
 * What happens to an account rather than to an organization's records (signing in, a password, sessions, a name) is
 * written to the audit log of every organization the account belongs to, with the person's `usr_` id as resource.
 * better-auth writes these changes in its own statements, outside any transaction of ours, so these rows follow the
 * change rather than share its transaction: its endpoint answered (or refused) first.
 */
async function inEveryOrganization(
  db: Db,
  orgIds: string[],
  actor: AuditContext["actor"],
  entry: AuditEntry,
  request: AccountRequest,
  now: Date,
): Promise<void> {
  if (orgIds.length === 0) return;
  const { origin, requestId } = request;
  await withTransaction({ db }, async ({ db: tx }) => {
    for (const orgId of orgIds) await recordAudit({ db: tx, org: { id: orgId }, actor, origin, requestId }, entry, now);
  });
}

/**
 * A sign-in attempt: `user.signed_in` with the person as actor, or `user.sign_in_failed` with an anonymous actor (a
 * wrong password proves nobody). An address that has no account belongs to no organization and is recorded nowhere
 * (the sign-in limits still count it).
 */
export async function recordSignIn({
  db,
  email,
  succeeded,
  origin,
  requestId,
  now = new Date(),
}: AccountRequest & {
  db: Db;
  email: string;
  succeeded: boolean;
  now?: Date;
}): Promise<void> {
  const rows = await db
    .select({ userId: users.id, orgId: memberships.orgId })
    .from(users)
    .innerJoin(memberships, eq(memberships.userId, users.id))
    .where(eq(users.email, email.trim().toLowerCase()));
  const userId = rows[0]?.userId;
  if (!userId) return;
  const actor: Actor | { type: "anonymous" } = succeeded ? { type: "user", id: userId } : { type: "anonymous" };
  const action = succeeded ? "user.signed_in" : "user.sign_in_failed";
  await inEveryOrganization(
    db,
    rows.map((r) => r.orgId),
    actor,
    { action, resourceId: userId },
    { origin, requestId },
    now,
  );
}

/** A change a signed-in person made to their own account (better-auth's endpoints), with them as actor. */
export async function recordAccountChange({
  db,
  userId,
  action,
  summary,
  origin,
  requestId,
  now = new Date(),
}: Pick<AuditEntry, "action" | "summary"> &
  AccountRequest & {
    db: Db;
    userId: string;
    now?: Date;
  }): Promise<void> {
  const rows = await db.select({ orgId: memberships.orgId }).from(memberships).where(eq(memberships.userId, userId));
  const actor = { type: "user" as const, id: userId };
  await inEveryOrganization(
    db,
    rows.map((r) => r.orgId),
    actor,
    { action, resourceId: userId, summary },
    { origin, requestId },
    now,
  );
}
