import "server-only";
import { and, asc, eq, sql } from "drizzle-orm";
import { recordAudit } from "@/lib/audit/record";
import { withTransaction, type DomainContext } from "@/lib/context";
import { memberships, users } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/tx";
import { ForbiddenError, NotFoundError, StateConflictError } from "@/lib/errors";
import { closeOpenInvitations } from "./open-invitations";
import { roleAllows, type Role } from "./roles";

/** One person of the organization, as Settings → Team lists them. */
export interface Member {
  userId: string;
  name: string;
  email: string;
  role: Role;
  joinedAt: Date;
}

/**
 * The acting person's role in the context's organization, read from the database (never taken from the caller), or
 * a ForbiddenError when they are not a person of it or their role is below `needed`.
 */
export async function requireRole(ctx: DomainContext, needed: Role): Promise<Role> {
  if (ctx.actor.type !== "user") throw new ForbiddenError("Only a signed-in person manages the team.");
  const [row] = await ctx.db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.orgId, ctx.org.id), eq(memberships.userId, ctx.actor.id)));
  if (!row) throw new ForbiddenError("You are not a member of this organization.");
  if (!roleAllows(row.role, needed)) throw new ForbiddenError(`Only an ${needed} or owner can do this.`);
  return row.role;
}

/** Everyone in the organization, owners first, then by when they joined. Any member may look. */
export async function listMembers(ctx: DomainContext): Promise<Member[]> {
  const rows = await ctx.db
    .select({
      userId: users.id,
      name: users.name,
      email: users.email,
      role: memberships.role,
      joinedAt: memberships.createdAt,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.orgId, ctx.org.id))
    .orderBy(
      sql`case ${memberships.role} when 'owner' then 0 when 'admin' then 1 else 2 end`,
      asc(memberships.createdAt),
    );
  return rows;
}

/**
 * The owners' rows of the organization, locked: two owners demoting or removing each other at once must not leave
 * the organization with none, so every change that can take an owner away holds these locks first.
 */
async function lockedOwners(db: DbOrTx, orgId: string): Promise<string[]> {
  const rows = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.orgId, orgId), eq(memberships.role, "owner")))
    .for("update");
  return rows.map((r) => r.userId);
}

/** The target's membership, checked against what the actor may touch (only an owner changes or removes an owner). */
async function targetOf(db: DbOrTx, orgId: string, userId: string, actorRole: Role): Promise<Role> {
  const [row] = await db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.orgId, orgId), eq(memberships.userId, userId)))
    .for("update");
  if (!row) throw new NotFoundError("That person is not a member of this organization.");
  if (row.role === "owner" && actorRole !== "owner") throw new ForbiddenError("Only an owner can change an owner.");
  return row.role;
}

/**
 * Changes a member's role. Admins and owners may; only an owner makes or unmakes owners; the last owner stays one
 * (someone must be able to manage the organization).
 */
export async function changeMemberRole({
  ctx,
  userId,
  role,
}: {
  ctx: DomainContext;
  userId: string;
  role: Role;
}): Promise<Member> {
  const actorRole = await requireRole(ctx, "admin");
  if (role === "owner" && actorRole !== "owner") throw new ForbiddenError("Only an owner can make someone an owner.");
  await withTransaction(ctx, async (tx) => {
    const owners = await lockedOwners(tx.db, ctx.org.id);
    const current = await targetOf(tx.db, ctx.org.id, userId, actorRole);
    if (current === "owner" && role !== "owner" && owners.length <= 1)
      throw new StateConflictError("The last owner cannot be demoted: make someone else an owner first.");
    // The role they already have: nothing changes, and the audit log records changes.
    if (current === role) return;
    await tx.db
      .update(memberships)
      .set({ role })
      .where(and(eq(memberships.orgId, ctx.org.id), eq(memberships.userId, userId)));
    await recordAudit(tx, { action: "member.role_changed", resourceId: userId, summary: { from: current, to: role } });
  });
  const member = (await listMembers(ctx)).find((m) => m.userId === userId);
  if (!member) throw new NotFoundError("That person is not a member of this organization.");
  return member;
}

/**
 * Takes a person out of the organization (their account stays; they act in another organization of theirs, if any).
 * Admins and owners may; only an owner removes an owner; the last owner cannot be removed; nobody removes themself
 * here (they would lock themself out mid-page). Their open invitations to the organization are revoked with it, so no
 * old link brings them back.
 */
export async function removeMember({ ctx, userId }: { ctx: DomainContext; userId: string }): Promise<void> {
  const actorRole = await requireRole(ctx, "admin");
  if (ctx.actor.type === "user" && ctx.actor.id === userId)
    throw new StateConflictError("You cannot remove yourself; ask another owner or admin.");
  await withTransaction(ctx, async (tx) => {
    const owners = await lockedOwners(tx.db, ctx.org.id);
    const current = await targetOf(tx.db, ctx.org.id, userId, actorRole);
    if (current === "owner" && owners.length <= 1)
      throw new StateConflictError("The last owner cannot be removed: make someone else an owner first.");
    await tx.db.delete(memberships).where(and(eq(memberships.orgId, ctx.org.id), eq(memberships.userId, userId)));
    await recordAudit(tx, { action: "member.removed", resourceId: userId, summary: { role: current } });
    const [person] = await tx.db.select({ email: users.email }).from(users).where(eq(users.id, userId));
    if (person) await closeOpenInvitations(tx, { email: person.email, because: "member_removed", now: new Date() });
  });
}
