import "server-only";
import type { z } from "zod";
import { and, desc, eq, sql } from "drizzle-orm";
import { recordAudit } from "@/lib/audit/record";
import {
  forOrganization,
  systemContext,
  withTransaction,
  type DomainContext,
  type RequestOrigin,
  type SystemContext,
} from "@/lib/context";
import { NotFoundError } from "@/lib/errors";
import { memberships, organizations, users } from "@/lib/db/schema";
import type { Db, Tx } from "@/lib/db/tx";
import { createOrganization } from "@/lib/orgs/create-organization";
import { RatingAddressInput } from "@/lib/schemas/address";
import { closeOpenInvitations } from "./open-invitations";
import type { Role } from "./roles";

type ShipFrom = z.output<typeof RatingAddressInput>;

export interface Membership {
  orgId: string;
  orgName: string;
  role: Role;
}

/**
 * The organization a signed-in user acts in: the one they joined last (someone who signed up, starting an
 * organization of their own, and was then added to their company's works in the company's). Choosing among several
 * becomes a session setting when invitations arrive.
 */
export async function membershipOf(db: Db, userId: string): Promise<Membership | null> {
  const [row] = await db
    .select({ orgId: memberships.orgId, orgName: organizations.name, role: memberships.role })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.orgId))
    .where(eq(memberships.userId, userId))
    .orderBy(desc(memberships.createdAt))
    .limit(1);
  return row ?? null;
}

/**
 * Where a new account belongs (docs/api.md, "Accounts and roles"): the first person to sign up owns the default
 * organization (the one the server bootstrapped, holding the first API key); everyone after starts an organization
 * of their own. The default organization's row is locked while it is checked, so of two simultaneous first sign-ups
 * exactly one becomes its owner. Idempotent: a user who already belongs somewhere is left alone. The membership is
 * recorded (`member.added`) as the person's own act, from `origin` (their sign-up request): the rule placed them, but
 * signing up is what they did; the organization a new one starts with is the service's (actor `system`).
 */
export async function placeNewUser(
  db: Db,
  user: { id: string; name: string; email: string },
  origin?: RequestOrigin,
  requestId?: string,
): Promise<Membership> {
  const existing = await membershipOf(db, user.id);
  if (existing) return existing;
  const ctx = systemContext(db, "sign-up");
  const joined = (tx: SystemContext & { db: Tx }, orgId: string) =>
    recordAudit(
      { ...tx, org: { id: orgId }, actor: { type: "user", id: user.id }, origin, requestId: requestId ?? tx.requestId },
      { action: "member.added", resourceId: user.id, summary: { role: "owner", because: "sign_up" } },
    );
  const claimed = await withTransaction(ctx, async (tx) => {
    const [org] = await tx.db
      .select({ id: organizations.id, name: organizations.name, claimedBy: organizations.firstOwnerEmail })
      .from(organizations)
      .where(eq(organizations.isDefault, true))
      .for("update");
    // Under SIGN_UP=invite_only the first account's sign-up claimed it (sign-up-policy.ts): nobody else takes it.
    if (!org || (org.claimedBy !== null && org.claimedBy !== user.email.trim().toLowerCase())) return null;
    const [taken] = await tx.db
      .select({ one: sql`1` })
      .from(memberships)
      .where(eq(memberships.orgId, org.id))
      .limit(1);
    if (taken) return null;
    await tx.db.insert(memberships).values({ orgId: org.id, userId: user.id, role: "owner" });
    await joined(tx, org.id);
    return { orgId: org.id, orgName: org.name, role: "owner" as const };
  });
  if (claimed) return claimed;
  const name = user.name.trim();
  const org = await createOrganization({ ctx, name: name ? `${name}'s organization` : "My organization" });
  await withTransaction(ctx, async (tx) => {
    const [added] = await tx.db
      .insert(memberships)
      .values({ orgId: org.id, userId: user.id, role: "owner" })
      .onConflictDoNothing()
      .returning({ orgId: memberships.orgId });
    if (added) await joined(tx, org.id);
  });
  return (await membershipOf(db, user.id)) ?? { orgId: org.id, orgName: org.name, role: "owner" };
}

/** Remembers the ship-from of a shipment a person just created, to prefill their next label. */
export async function rememberShipFrom(ctx: DomainContext, shipper: ShipFrom): Promise<void> {
  if (ctx.actor.type !== "user") return;
  await ctx.db
    .update(memberships)
    .set({ lastShipFrom: shipper })
    .where(and(eq(memberships.orgId, ctx.org.id), eq(memberships.userId, ctx.actor.id)));
}

/** The ship-from the signed-in person used last in this organization, if it still reads as an address. */
export async function lastShipFrom(ctx: DomainContext): Promise<ShipFrom | null> {
  if (ctx.actor.type !== "user") return null;
  const [row] = await ctx.db
    .select({ value: memberships.lastShipFrom })
    .from(memberships)
    .where(and(eq(memberships.orgId, ctx.org.id), eq(memberships.userId, ctx.actor.id)));
  const parsed = RatingAddressInput.safeParse(row?.value);
  return parsed.success ? parsed.data : null;
}

/**
 * Puts an existing account into an organization with a role, or changes its role there (the command line's
 * `members add`, until the dashboard's Team settings invite people). They act in it from their next request; their
 * open invitations to it are revoked, as when they accept one. Recorded as the command's system actor
 * (`member.added`, or `member.role_changed` as Settings → Team records it).
 */
export async function addMember({
  ctx,
  orgId,
  email,
  role,
}: {
  ctx: SystemContext;
  orgId: string;
  email: string;
  role: Role;
}): Promise<{ userId: string; orgId: string; role: Role }> {
  const [user] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.email, email.trim().toLowerCase()));
  if (!user) throw new NotFoundError("No account has that email address; the person signs up first.");
  await withTransaction(forOrganization(ctx, orgId), async (tx) => {
    const [before] = await tx.db
      .select({ role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.orgId, orgId), eq(memberships.userId, user.id)))
      .for("update");
    await tx.db
      .insert(memberships)
      .values({ orgId, userId: user.id, role })
      .onConflictDoUpdate({ target: [memberships.orgId, memberships.userId], set: { role } });
    // Run again with the role they have, nothing changed and nothing is recorded (as an ensured key found again).
    if (!before) await recordAudit(tx, { action: "member.added", resourceId: user.id, summary: { role } });
    else if (before.role !== role)
      await recordAudit(tx, {
        action: "member.role_changed",
        resourceId: user.id,
        summary: { from: before.role, to: role },
      });
    await closeOpenInvitations(tx, { email, because: "member_added", now: new Date() });
  });
  return { userId: user.id, orgId, role };
}
