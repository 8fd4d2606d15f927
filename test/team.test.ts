import { beforeEach, describe, expect, it, vi } from "vitest";
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
import { changeMemberRole, listMembers, removeMember, requireRole } from "@/lib/auth/team";
import { ForbiddenError, NotFoundError } from "@/lib/errors";
import { roleAllows, type Role } from "@/lib/auth/roles";
import type { DomainContext } from "@/lib/context";
import { getDb } from "@/lib/db/client";
import type { Db } from "@/lib/db/tx";
import { invitations, users } from "@/lib/db/schema";
import { makeOrg, orgCtx, personCtx, systemCtx } from "./helpers";
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
    ).rejects.toMatchObject({ code: "forbidden", message: "Only an admin or owner can do this." });
    await expect(
      changeMemberRole({ ctx: await as(orgId, admin), userId: member.id, role: "owner" }),
    ).rejects.toMatchObject({ code: "forbidden", message: "Only an owner can make someone an owner." });
    await expect(
      changeMemberRole({ ctx: await as(orgId, admin), userId: owner.id, role: "member" }),
    ).rejects.toMatchObject({ code: "forbidden", message: "Only an owner can change an owner." });
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
      message: "That person is not a member of this organization.",
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

    await acceptInvitation({ ctx: await personCtx(invitee), token });
    expect(await membershipOf(await getDb(), invitee.id)).toMatchObject({ orgId, role: "admin" });
    expect((await invitationByToken(await getDb(), token))?.state).toBe("accepted");
    await expect(acceptInvitation({ ctx: await personCtx(invitee), token })).rejects.toThrow(/accepted/);
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
    await expect(acceptInvitation({ ctx: await personCtx(invitee), token: old.token })).rejects.toThrow(
      /not used in time/,
    );

    const revoked = await createInvitation({ ctx, email: invitee.email, role: "member" });
    await revokeInvitation({ ctx, id: revoked.invitation.id });
    await expect(acceptInvitation({ ctx: await personCtx(invitee), token: revoked.token })).rejects.toThrow(/revoked/);
    await expect(acceptInvitation({ ctx: await personCtx(invitee), token: "nope" })).rejects.toMatchObject({
      code: "not_found",
      message: "This invitation link is not valid.",
    });

    const someoneElse = await person("Else");
    const fresh = await createInvitation({ ctx, email: invitee.email, role: "member" });
    await expect(acceptInvitation({ ctx: await personCtx(someoneElse), token: fresh.token })).rejects.toMatchObject({
      code: "forbidden",
      message: `This invitation is for ${invitee.email}; sign in with that address to accept it.`,
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
    ).rejects.toMatchObject({ code: "forbidden", message: "Only an owner can invite an owner." });
    expect(
      (await createInvitation({ ctx: await as(orgId, owner), email: "co-owner@example.test", role: "owner" }))
        .invitation,
    ).toMatchObject({ id: expect.stringMatching(/^inv_[0-9a-f]{32}$/), role: "owner", state: "pending" });
    await expect(
      createInvitation({ ctx: await as(orgId, owner), email: member.email, role: "admin" }),
    ).rejects.toMatchObject({
      code: "validation_error",
      problems: [{ message: "is already a member of this organization", field: "email" }],
    });
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

describe("team: a person's other invitations", () => {
  it("closes their other open invitations to the organization when they accept one, and leaves other organizations' alone", async () => {
    const { orgId, owner } = await team();
    const ctx = await as(orgId, owner);
    const invitee = await person("Invitee");
    const member = await createInvitation({ ctx, email: invitee.email, role: "member" });
    const admin = await createInvitation({ ctx, email: invitee.email, role: "admin" });
    const elsewhere = await team();
    const theirs = await createInvitation({
      ctx: await as(elsewhere.orgId, elsewhere.owner),
      email: invitee.email,
      role: "member",
    });

    await acceptInvitation({ ctx: await personCtx(invitee), token: member.token });
    expect(await membershipOf(await getDb(), invitee.id)).toMatchObject({ orgId, role: "member" });
    // The admin link no longer raises the member it was sent to before they joined.
    expect((await invitationByToken(await getDb(), admin.token))?.state).toBe("revoked");
    await expect(acceptInvitation({ ctx: await personCtx(invitee), token: admin.token })).rejects.toThrow(/revoked/);
    expect(await listOpenInvitations(ctx)).toEqual([]);
    expect((await invitationByToken(await getDb(), theirs.token))?.state).toBe("pending");
  });

  it("closes a person's open invitations when the command line adds them, and when they are removed", async () => {
    const { orgId, owner } = await team();
    const ctx = await as(orgId, owner);
    const removed = await person("Removed");
    // Invited, then added another way (the command line's `members add`) before using the link.
    const open = await createInvitation({ ctx, email: removed.email, role: "admin" });
    await addMember({ ctx: await systemCtx(), orgId, email: removed.email, role: "member" });
    expect((await invitationByToken(await getDb(), open.token))?.state).toBe("revoked");
    // A link left open from before these rules (or by a race with the check at invitation) dies with the removal.
    const db = await getDb();
    await db.update(invitations).set({ revokedAt: null }).where(eq(invitations.id, open.invitation.id));
    const elsewhere = await team();
    const theirs = await createInvitation({
      ctx: await as(elsewhere.orgId, elsewhere.owner),
      email: removed.email,
      role: "member",
    });

    await removeMember({ ctx, userId: removed.id });
    expect((await invitationByToken(db, open.token))?.state).toBe("revoked");
    await expect(acceptInvitation({ ctx: await personCtx(removed), token: open.token })).rejects.toThrow(/revoked/);
    expect(await membershipOf(db, removed.id)).not.toMatchObject({ orgId });
    expect((await invitationByToken(db, theirs.token))?.state).toBe("pending");
  });
});

describe("team: the rules' edges", () => {
  it("knows roles by rank: an owner may do what an admin may, an admin what a member may, never upwards", () => {
    const ranked: Role[] = ["member", "admin", "owner"];
    for (const [i, role] of ranked.entries())
      for (const [j, needed] of ranked.entries()) expect(roleAllows(role, needed), `${role} as ${needed}`).toBe(i >= j);
  });

  it("lets only a signed-in person of the organization manage its team", async () => {
    const { orgId, owner } = await team();
    const viaKey = await orgCtx(orgId); // an API key's context
    await expect(requireRole({ ...viaKey, actor: { type: "api_key", id: "key_x" } }, "member")).rejects.toThrow(
      new ForbiddenError("Only a signed-in person manages the team."),
    );
    const stranger = await person("Stranger");
    await expect(requireRole(await as(orgId, stranger), "member")).rejects.toThrow(/not a member/);
    expect(await requireRole(await as(orgId, owner), "owner")).toBe("owner");
  });

  it("lists admins before members, and people of one role in the order they joined", async () => {
    const { orgId, owner, others } = await team("member", "admin", "member", "admin");
    const list = await listMembers(await as(orgId, owner));
    expect(list.map((m) => m.userId)).toEqual([owner.id, others[1]!.id, others[3]!.id, others[0]!.id, others[2]!.id]);
    expect(list[0]).toMatchObject({ name: expect.any(String), email: owner.email, joinedAt: expect.any(Date) });
  });

  it("lets the last owner stay an owner, an admin change a member, and answers the changed member", async () => {
    const { orgId, owner, others } = await team("member", "admin");
    const [member, admin] = others as [Person, Person];
    expect(await changeMemberRole({ ctx: await as(orgId, owner), userId: owner.id, role: "owner" })).toMatchObject({
      userId: owner.id,
      role: "owner",
    });
    expect(await changeMemberRole({ ctx: await as(orgId, admin), userId: member.id, role: "admin" })).toMatchObject({
      userId: member.id,
      email: member.email,
      role: "admin",
    });
    await expect(
      changeMemberRole({ ctx: await as(orgId, owner), userId: "user_missing", role: "member" }),
    ).rejects.toMatchObject({ code: "not_found" });
    // With two owners, one owner may remove the other.
    await changeMemberRole({ ctx: await as(orgId, owner), userId: admin.id, role: "owner" });
    await removeMember({ ctx: await as(orgId, owner), userId: admin.id });
    expect((await listMembers(await as(orgId, owner))).map((m) => m.userId)).toEqual([owner.id, member.id]);
    expect(await membershipOf(await getDb(), admin.id)).not.toMatchObject({ orgId });
  });

  it("never removes the last owner, even when the remover was demoted after their role was read", async () => {
    const { orgId, owner, others } = await team("admin");
    const [second] = others as [Person];
    await changeMemberRole({ ctx: await as(orgId, owner), userId: second.id, role: "owner" });
    // `second` (an owner when the removal starts) is demoted by `owner` just before the removal's transaction.
    const db = await getDb();
    const racing = Object.create(db) as Db;
    racing.transaction = async (fn, config) => {
      await changeMemberRole({ ctx: await as(orgId, owner), userId: second.id, role: "admin" });
      return db.transaction(fn, config);
    };
    await expect(
      removeMember({ ctx: { ...(await as(orgId, second)), db: racing }, userId: owner.id }),
    ).rejects.toMatchObject({
      code: "state_conflict",
      message: "The last owner cannot be removed: make someone else an owner first.",
    });
    const roles = Object.fromEntries((await listMembers(await as(orgId, owner))).map((m) => [m.userId, m.role]));
    expect(roles).toEqual({ [owner.id]: "owner", [second.id]: "admin" });
  });

  it("adds an existing account by its email in any case, and changes the role of someone already in", async () => {
    const { orgId } = await team();
    const p = await person("Added");
    const ctx = await systemCtx();
    expect(await addMember({ ctx, orgId, email: ` ${p.email.toUpperCase()} `, role: "member" })).toEqual({
      userId: p.id,
      orgId,
      role: "member",
    });
    await addMember({ ctx, orgId, email: p.email, role: "admin" });
    expect(await membershipOf(await getDb(), p.id)).toMatchObject({ orgId, role: "admin", orgName: "Team test" });
    await expect(addMember({ ctx, orgId, email: "nobody@example.test", role: "member" })).rejects.toThrow(
      NotFoundError,
    );
  });
});

describe("team: invitations' edges", () => {
  const DAY = 86_400_000;

  it("works for exactly 7 days from its creation", async () => {
    const { orgId, owner } = await team();
    const ctx = await as(orgId, owner);
    const invitee = await person("Week");
    const now = new Date("2030-01-01T00:00:00Z");
    const { invitation, token } = await createInvitation({ ctx, email: invitee.email, role: "member", now });
    expect(invitation).toMatchObject({
      email: invitee.email,
      role: "member",
      state: "pending",
      expiresAt: new Date(now.getTime() + 7 * DAY),
      createdAt: now,
    });
    const db = await getDb();
    const [row] = await db.select().from(invitations).where(eq(invitations.id, invitation.id));
    expect(row!.invitedBy).toBe(owner.id);
    expect((await invitationByToken(db, token, new Date(now.getTime() + 7 * DAY - 1)))?.state).toBe("pending");
    expect(await invitationByToken(db, token, new Date(now.getTime() + 7 * DAY))).toEqual({
      orgName: "Team test",
      email: invitee.email,
      role: "member",
      state: "expired",
    });
    await expect(
      acceptInvitation({ ctx: await personCtx(invitee), token, now: new Date(now.getTime() + 7 * DAY) }),
    ).rejects.toThrow("This invitation was not used in time.");
    expect(
      await acceptInvitation({ ctx: await personCtx(invitee), token, now: new Date(now.getTime() + 7 * DAY - 1) }),
    ).toEqual({
      orgId,
      role: "member",
    });
  });

  it("takes only something that looks like one email address", async () => {
    const { orgId, owner } = await team();
    const ctx = await as(orgId, owner);
    for (const bad of [
      "x",
      "x@y",
      "@y.z",
      "x@.z",
      "a b@c.d",
      "x@y.z w",
      `${"a".repeat(250)}@b.cd`,
      "a\u0000@b.cd",
      "a\u0007@b.cd",
      "a\ud800@b.cd",
    ])
      await expect(createInvitation({ ctx, email: bad, role: "member" }), bad).rejects.toMatchObject({
        code: "validation_error",
        problems: [{ message: "must be an email address", field: "email" }],
      });
    // 254 characters is the longest address there is.
    const ok = await createInvitation({ ctx, email: ` ${"a".repeat(249)}@b.cd `, role: "member" });
    expect(ok.invitation.email).toBe(`${"a".repeat(249)}@b.cd`);
  });

  it("lists open invitations newest first, says 'revoked' once revoked, and keeps a member's role on accepting", async () => {
    const { orgId, owner, others } = await team("admin");
    const ctx = await as(orgId, owner);
    const [admin] = others as [Person];
    const t = Date.now();
    const a = await createInvitation({ ctx, email: "first@example.test", role: "member", now: new Date(t - 2000) });
    const b = await createInvitation({ ctx, email: "second@example.test", role: "member", now: new Date(t - 1000) });
    expect((await listOpenInvitations(ctx)).map((i) => i.id)).toEqual([b.invitation.id, a.invitation.id]);
    expect(await revokeInvitation({ ctx, id: a.invitation.id })).toMatchObject({
      id: a.invitation.id,
      state: "revoked",
    });
    await expect(revokeInvitation({ ctx, id: a.invitation.id })).rejects.toMatchObject({
      code: "not_found",
      message: "No open invitation has that id.",
    });
    expect((await invitationByToken(await getDb(), a.token))?.state).toBe("revoked");

    // Someone already in the organization (invited before they joined) keeps the role they have.
    const late = await createInvitation({ ctx, email: "late@example.test", role: "member" });
    await getDb().then((db) =>
      db.update(invitations).set({ email: admin.email }).where(eq(invitations.id, late.invitation.id)),
    );
    expect(await acceptInvitation({ ctx: await personCtx(admin), token: late.token })).toEqual({
      orgId,
      role: "member",
    });
    expect(await requireRole(await as(orgId, admin), "admin")).toBe("admin");
  });

  it("finds nothing for an empty, overlong or unknown token, and asks the database only about the unknown one", async () => {
    const db = await getDb();
    const select = vi.spyOn(db, "select");
    try {
      for (const token of ["", "x".repeat(101)]) expect(await invitationByToken(db, token)).toBeNull();
      expect(select).not.toHaveBeenCalled();
      expect(await invitationByToken(db, "y".repeat(100))).toBeNull();
      expect(select).toHaveBeenCalledTimes(1);
    } finally {
      select.mockRestore();
    }
  });
});
