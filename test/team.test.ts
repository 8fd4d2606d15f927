import { beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { resetSignInLimits } from "@/lib/api/auth-endpoint";
import {
  acceptInvitation,
  createInvitation,
  invitationByToken,
  listOpenInvitations,
  revokeInvitation,
} from "@/lib/auth/invitations";
import { addMember, membershipOf } from "@/lib/auth/memberships";
import { changeMemberRole, listMembers, removeMember } from "@/lib/auth/team";
import type { Role } from "@/lib/auth/roles";
import type { DomainContext } from "@/lib/context";
import { getDb } from "@/lib/db/client";
import { invitations, users } from "@/lib/db/schema";
import { makeOrg, orgCtx, systemCtx } from "./helpers";
import { newAccount, signUp } from "./session-helpers";

beforeEach(() => resetSignInLimits());

interface Person {
  id: string;
  email: string;
}

let address = 0;
/** A signed-up account (it starts an organization of its own, as sign-up does). */
async function person(name: string): Promise<Person> {
  const account = newAccount(name);
  address += 1;
  await signUp(account, `10.9.${Math.floor(address / 250)}.${address % 250}`);
  const [row] = await (await getDb()).select({ id: users.id }).from(users).where(eq(users.email, account.email));
  return { id: row!.id, email: account.email };
}

/** An organization with an owner and the given extra people in it. */
async function team(...roles: Role[]) {
  const { orgId } = await makeOrg("Team test");
  const owner = await person("Owner");
  await addMember({ ctx: await systemCtx(), orgId, email: owner.email, role: "owner" });
  const others: Person[] = [];
  for (const role of roles) {
    const p = await person(role);
    await addMember({ ctx: await systemCtx(), orgId, email: p.email, role });
    others.push(p);
  }
  return { orgId, owner, others };
}

async function as(orgId: string, who: Person): Promise<DomainContext> {
  return { ...(await orgCtx(orgId)), actor: { type: "user", id: who.id } };
}

describe("team: members and roles", () => {
  it("lists the organization's people, owners first", async () => {
    const { orgId, owner, others } = await team("member", "admin");
    const list = await listMembers(await as(orgId, others[0]!));
    expect(list.map((m) => [m.email, m.role])).toEqual([
      [owner.email, "owner"],
      [others[1]!.email, "admin"],
      [others[0]!.email, "member"],
    ]);
  });

  it("never lets the last owner be demoted or removed, and lets them go once there is another owner", async () => {
    const { orgId, owner, others } = await team("admin");
    const [admin] = others as [Person];
    await expect(changeMemberRole({ ctx: await as(orgId, owner), userId: owner.id, role: "admin" })).rejects.toThrow(
      /last owner/,
    );
    await expect(removeMember({ ctx: await as(orgId, admin), userId: owner.id })).rejects.toMatchObject({
      code: "forbidden",
    });
    await changeMemberRole({ ctx: await as(orgId, owner), userId: admin.id, role: "owner" });
    // Two owners: now one may step down, and then the other is the last again.
    await changeMemberRole({ ctx: await as(orgId, admin), userId: owner.id, role: "member" });
    await expect(removeMember({ ctx: await as(orgId, owner), userId: admin.id })).rejects.toMatchObject({
      code: "forbidden",
    });
    await expect(changeMemberRole({ ctx: await as(orgId, admin), userId: admin.id, role: "admin" })).rejects.toThrow(
      /last owner/,
    );
    const roles = Object.fromEntries((await listMembers(await as(orgId, admin))).map((m) => [m.userId, m.role]));
    expect(roles).toEqual({ [admin.id]: "owner", [owner.id]: "member" });
  });

  it("keeps members from managing, admins from touching owners, and everyone from removing themself", async () => {
    const { orgId, owner, others } = await team("member", "admin");
    const [member, admin] = others as [Person, Person];
    await expect(
      changeMemberRole({ ctx: await as(orgId, member), userId: member.id, role: "admin" }),
    ).rejects.toMatchObject({ code: "forbidden" });
    await expect(
      changeMemberRole({ ctx: await as(orgId, admin), userId: member.id, role: "owner" }),
    ).rejects.toMatchObject({ code: "forbidden" });
    await expect(removeMember({ ctx: await as(orgId, admin), userId: admin.id })).rejects.toThrow(/yourself/);
    await changeMemberRole({ ctx: await as(orgId, admin), userId: member.id, role: "admin" });
    await removeMember({ ctx: await as(orgId, admin), userId: member.id });
    expect((await listMembers(await as(orgId, owner))).map((m) => m.userId)).toEqual([owner.id, admin.id]);
  });

  it("keeps organizations apart: another organization's person is not found and cannot act", async () => {
    const a = await team("member");
    const b = await team();
    await expect(removeMember({ ctx: await as(a.orgId, a.owner), userId: b.owner.id })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(removeMember({ ctx: await as(b.orgId, a.owner), userId: b.owner.id })).rejects.toMatchObject({
      code: "forbidden",
    });
  });
});

describe("team: invitations", () => {
  it("stores only the token's hash and lets the invited person join once, with the invited role", async () => {
    const { orgId, owner } = await team();
    const ctx = await as(orgId, owner);
    const invitee = await person("Invitee");
    const { invitation, token } = await createInvitation({ ctx, email: invitee.email.toUpperCase(), role: "admin" });
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [row] = await (await getDb()).select().from(invitations).where(eq(invitations.id, invitation.id));
    expect(row!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(7 * 24 * 3600 * 1000);
    expect(await invitationByToken(await getDb(), token)).toMatchObject({ state: "pending", role: "admin" });

    await acceptInvitation({ db: await getDb(), token, user: invitee });
    expect(await membershipOf(await getDb(), invitee.id)).toMatchObject({ orgId, role: "admin" });
    expect((await invitationByToken(await getDb(), token))?.state).toBe("accepted");
    await expect(acceptInvitation({ db: await getDb(), token, user: invitee })).rejects.toThrow(/accepted/);
    expect(await listOpenInvitations(ctx)).toEqual([]);
  });

  it("refuses an expired, revoked or unknown link, and another address than the invited one", async () => {
    const { orgId, owner } = await team();
    const ctx = await as(orgId, owner);
    const invitee = await person("Late");
    const db = await getDb();
    const old = await createInvitation({
      ctx,
      email: invitee.email,
      role: "member",
      now: new Date(Date.now() - 8 * 86_400_000),
    });
    expect((await listOpenInvitations(ctx)).map((i) => i.state)).toEqual(["expired"]);
    await expect(acceptInvitation({ db, token: old.token, user: invitee })).rejects.toThrow(/not used in time/);

    const revoked = await createInvitation({ ctx, email: invitee.email, role: "member" });
    await revokeInvitation({ ctx, id: revoked.invitation.id });
    await expect(acceptInvitation({ db, token: revoked.token, user: invitee })).rejects.toThrow(/revoked/);
    await expect(acceptInvitation({ db, token: "nope", user: invitee })).rejects.toMatchObject({ code: "not_found" });

    const someoneElse = await person("Else");
    const fresh = await createInvitation({ ctx, email: invitee.email, role: "member" });
    await expect(acceptInvitation({ db, token: fresh.token, user: someoneElse })).rejects.toMatchObject({
      code: "forbidden",
    });
    expect(await membershipOf(db, invitee.id)).not.toMatchObject({ orgId });
  });

  it("lets only admins invite, only owners invite owners, and keeps another organization's invitations apart", async () => {
    const { orgId, owner, others } = await team("member", "admin");
    const [member, admin] = others as [Person, Person];
    await expect(
      createInvitation({ ctx: await as(orgId, member), email: "x@example.test", role: "member" }),
    ).rejects.toMatchObject({ code: "forbidden" });
    await expect(
      createInvitation({ ctx: await as(orgId, admin), email: "x@example.test", role: "owner" }),
    ).rejects.toMatchObject({ code: "forbidden" });
    await expect(
      createInvitation({ ctx: await as(orgId, owner), email: member.email, role: "admin" }),
    ).rejects.toMatchObject({ code: "validation_error" });
    const { invitation } = await createInvitation({
      ctx: await as(orgId, admin),
      email: "x@example.test",
      role: "member",
    });
    const other = await team();
    await expect(
      revokeInvitation({ ctx: await as(other.orgId, other.owner), id: invitation.id }),
    ).rejects.toMatchObject({ code: "not_found" });
    expect(await listOpenInvitations(await as(other.orgId, other.owner))).toEqual([]);
  });
});
