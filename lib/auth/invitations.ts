import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, isNull } from "drizzle-orm";
import { recordAudit } from "@/lib/audit/record";
import { withTransaction, type DomainContext } from "@/lib/context";
import { invitations, memberships, organizations, users } from "@/lib/db/schema";
import { newId } from "@/lib/db/ids";
import type { Db } from "@/lib/db/tx";
import { ForbiddenError, NotFoundError, StateConflictError, ValidationError } from "@/lib/errors";
import { closeOpenInvitations } from "./open-invitations";
import type { Role } from "./roles";
import { requireRole } from "./team";

/** How long a link works: long enough for a weekend, short enough that a forgotten link dies. */
const INVITATION_DAYS = 7;

export type InvitationState = "pending" | "expired" | "revoked" | "accepted";

export interface Invitation {
  id: string;
  email: string;
  role: Role;
  state: InvitationState;
  expiresAt: Date;
  createdAt: Date;
}

type Row = typeof invitations.$inferSelect;

/** An invitation's link token as it is stored: only its hash, so the table cannot be read for working links. */
export const invitationTokenHash = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

function stateOf(row: Row, now: Date): InvitationState {
  if (row.acceptedAt) return "accepted";
  if (row.revokedAt) return "revoked";
  return row.expiresAt <= now ? "expired" : "pending";
}

const present = (row: Row, now = new Date()): Invitation => ({
  id: row.id,
  email: row.email,
  role: row.role,
  state: stateOf(row, now),
  expiresAt: row.expiresAt,
  createdAt: row.createdAt,
});

const normalEmail = (email: string) => email.trim().toLowerCase();

/**
 * Invites `email` into the organization with `role`: a one-time link token (256 random bits; only its SHA-256 is
 * stored), shown to the inviter once and valid for INVITATION_DAYS. Admins and owners invite; only an owner invites
 * an owner. Someone already a member is not invited again.
 */
export async function createInvitation({
  ctx,
  email,
  role,
  now = new Date(),
}: {
  ctx: DomainContext;
  email: string;
  role: Role;
  now?: Date;
}): Promise<{ invitation: Invitation; token: string }> {
  const actorRole = await requireRole(ctx, "admin");
  if (role === "owner" && actorRole !== "owner") throw new ForbiddenError("Only an owner can invite an owner.");
  const address = normalEmail(email);
  // \s leaves control characters and lone surrogates in: a NUL the database refuses was a 500, not this 400.
  if (
    !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address) ||
    address.length > 254 ||
    /[\u0000-\u001f\u007f]|\p{Cs}/u.test(address)
  )
    throw new ValidationError("must be an email address", "email");
  const [already] = await ctx.db
    .select({ id: users.id })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.orgId, ctx.org.id), eq(users.email, address)));
  if (already) throw new ValidationError("is already a member of this organization", "email");
  const token = randomBytes(32).toString("base64url");
  const row = await withTransaction(ctx, async (tx) => {
    const [inserted] = await tx.db
      .insert(invitations)
      .values({
        id: newId("invitation"),
        orgId: ctx.org.id,
        email: address,
        role,
        tokenHash: invitationTokenHash(token),
        invitedBy: ctx.actor.type === "user" ? ctx.actor.id : null,
        expiresAt: new Date(now.getTime() + INVITATION_DAYS * 24 * 60 * 60 * 1000),
        createdAt: now,
      })
      .returning();
    // The role, not the address: an email is personal data, and the invitation's id leads to it while it is kept.
    await recordAudit(tx, { action: "invitation.created", resourceId: inserted!.id, summary: { role } });
    return inserted!;
  });
  return { invitation: present(row, now), token };
}

/** The organization's invitations not yet accepted or revoked (expired ones too, marked so), newest first. */
export async function listOpenInvitations(ctx: DomainContext): Promise<Invitation[]> {
  const rows = await ctx.db
    .select()
    .from(invitations)
    .where(and(eq(invitations.orgId, ctx.org.id), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)))
    .orderBy(desc(invitations.createdAt))
    .limit(200);
  const now = new Date();
  return rows.map((r) => present(r, now));
}

/** Makes a pending invitation's link stop working. Admins and owners; another organization's id is not found. */
export async function revokeInvitation({ ctx, id }: { ctx: DomainContext; id: string }): Promise<Invitation> {
  await requireRole(ctx, "admin");
  const row = await withTransaction(ctx, async (tx) => {
    const [revoked] = await tx.db
      .update(invitations)
      .set({ revokedAt: new Date() })
      .where(
        and(
          eq(invitations.id, id),
          eq(invitations.orgId, ctx.org.id),
          isNull(invitations.acceptedAt),
          isNull(invitations.revokedAt),
        ),
      )
      .returning();
    if (!revoked) throw new NotFoundError("No open invitation has that id.");
    await recordAudit(tx, { action: "invitation.revoked", resourceId: revoked.id, summary: { role: revoked.role } });
    return revoked;
  });
  return present(row);
}

/** What an invitation link leads to, for its page: nothing (unknown token), or the organization, role and state. */
export async function invitationByToken(
  db: Db,
  token: string,
  now = new Date(),
): Promise<{ orgName: string; email: string; role: Role; state: InvitationState } | null> {
  if (!token || token.length > 100) return null;
  const [row] = await db
    .select({ invitation: invitations, orgName: organizations.name })
    .from(invitations)
    .innerJoin(organizations, eq(organizations.id, invitations.orgId))
    .where(eq(invitations.tokenHash, invitationTokenHash(token)));
  if (!row) return null;
  return {
    orgName: row.orgName,
    email: row.invitation.email,
    role: row.invitation.role,
    state: stateOf(row.invitation, now),
  };
}

/**
 * Accepts an invitation as the signed-in person the context acts as: adds their membership with the invited role (a
 * person already in the organization keeps their role) and uses the link up, in one transaction holding the
 * invitation's row, so a link works once however many tabs press Accept. The account's email, read here, must be the
 * invited one. The person's other open invitations to the organization are revoked with it (closeOpenInvitations).
 * The context has no organization yet: it is the invitation's, and the rows are written there, as the person, from
 * their request.
 */
export async function acceptInvitation({
  ctx,
  token,
  now = new Date(),
}: {
  ctx: Omit<DomainContext, "org">;
  token: string;
  now?: Date;
}): Promise<{ orgId: string; role: Role }> {
  const { actor } = ctx;
  if (actor.type !== "user") throw new ForbiddenError("Only a signed-in person accepts an invitation.");
  return withTransaction(ctx, async (tx) => {
    const [row] = await tx.db
      .select()
      .from(invitations)
      .where(eq(invitations.tokenHash, invitationTokenHash(token)))
      .for("update");
    if (!row) throw new NotFoundError("This invitation link is not valid.");
    const state = stateOf(row, now);
    if (state !== "pending")
      throw new StateConflictError(`This invitation was ${state === "expired" ? "not used in time" : state}.`);
    const [person] = await tx.db.select({ email: users.email }).from(users).where(eq(users.id, actor.id));
    if (!person || normalEmail(person.email) !== row.email)
      throw new ForbiddenError(`This invitation is for ${row.email}; sign in with that address to accept it.`);
    const joining = { ...tx, org: { id: row.orgId } };
    await tx.db
      .insert(memberships)
      .values({ orgId: row.orgId, userId: actor.id, role: row.role })
      .onConflictDoNothing();
    await tx.db.update(invitations).set({ acceptedAt: now, acceptedBy: actor.id }).where(eq(invitations.id, row.id));
    await recordAudit(joining, { action: "invitation.accepted", resourceId: row.id, summary: { role: row.role } }, now);
    await closeOpenInvitations(joining, { email: row.email, except: row.id, because: "invitation_accepted", now });
    return { orgId: row.orgId, role: row.role };
  });
}
