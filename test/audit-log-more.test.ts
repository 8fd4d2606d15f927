import { beforeEach, describe, expect, it } from "vitest";
import { asc, eq } from "drizzle-orm";
import { PUT as putMapping } from "@/app/v1/batches/mapping/route";
import { resetSignInLimits } from "@/lib/api/auth-endpoint";
import { acceptInvitation, createInvitation } from "@/lib/auth/invitations";
import { addMember } from "@/lib/auth/memberships";
import { removeMember } from "@/lib/auth/team";
import { saveMappingTemplate } from "@/lib/batches/mapping-template";
import { withTransaction, type DomainContext } from "@/lib/context";
import { getDb } from "@/lib/db/client";
import { auditEvents, batchMappings, invitations, memberships, users } from "@/lib/db/schema";
import { call, makeOrg, orgCtx, personCtx, systemCtx } from "./helpers";
import { authPost, cookieFrom, newAccount, signIn, signUp } from "./session-helpers";

/**
 * The audit rows of the changes test/audit-log.test.ts does not make: the command line's members, a sign-up's
 * placement, invitations closed by joining or leaving, the saved CSV mapping, and a person's own account changes.
 */

beforeEach(() => resetSignInLimits());

/** Every row about `resourceId` in `orgId` (any actor: the system's rows are the point here), oldest first. */
async function rowsOf(orgId: string, resourceId: string) {
  const rows = await (
    await getDb()
  )
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.orgId, orgId))
    .orderBy(asc(auditEvents.seq));
  return rows.filter((r) => r.resourceId === resourceId);
}

const brief = (r: typeof auditEvents.$inferSelect) => [r.action, r.actorType, r.actorId ?? r.actorName, r.summary];

async function person(name: string, address: string) {
  const account = newAccount(name);
  const cookie = await signUp(account, address);
  const [row] = await (await getDb()).select({ id: users.id }).from(users).where(eq(users.email, account.email));
  return { ...account, id: row!.id, cookie };
}

async function ownerOf(orgId: string, address: string) {
  const owner = await person("Owner", address);
  await addMember({ ctx: await systemCtx(), orgId, email: owner.email, role: "owner" });
  const ctx: DomainContext = {
    ...(await orgCtx(orgId)),
    actor: { type: "user", id: owner.id },
    origin: { address: "198.51.100.9", userAgent: "Owner's browser" },
  };
  return { owner, ctx };
}

describe("audit rows for joining and leaving", () => {
  it("records the command line's members add as the system: added, role changed, invitations it closed", async () => {
    const { orgId } = await makeOrg();
    const { owner, ctx } = await ownerOf(orgId, "10.32.0.1");
    const clerk = await person("Clerk", "10.32.0.2");
    const { invitation } = await createInvitation({ ctx, email: clerk.email, role: "admin" });

    await addMember({ ctx: await systemCtx(), orgId, email: clerk.email, role: "member" });
    await addMember({ ctx: await systemCtx(), orgId, email: clerk.email, role: "member" });
    await addMember({ ctx: await systemCtx(), orgId, email: clerk.email, role: "admin" });

    // Run again with the same role, nothing changed: no row.
    expect((await rowsOf(orgId, clerk.id)).map(brief)).toEqual([
      ["member.added", "system", "test", { role: "member" }],
      ["member.role_changed", "system", "test", { from: "member", to: "admin" }],
    ]);
    const closed = await rowsOf(orgId, invitation.id);
    expect(closed.map(brief)).toEqual([
      ["invitation.created", "user", owner.id, { role: "admin" }],
      ["invitation.revoked", "system", "test", { role: "admin", because: "member_added" }],
    ]);
    expect(closed[1]!.requestId).toMatch(/^job_/);
  });

  it("records a sign-up's placement as the person, from their sign-up's client", async () => {
    const someone = await person("Newcomer", "10.32.1.1");
    const [membership] = await (
      await getDb()
    )
      .select({ orgId: memberships.orgId })
      .from(memberships)
      .where(eq(memberships.userId, someone.id));
    const [added] = await rowsOf(membership!.orgId, someone.id);
    expect(brief(added!)).toEqual(["member.added", "user", someone.id, { role: "owner", because: "sign_up" }]);
    expect(added!.clientAddress).toBe("10.32.1.1");
  });

  it("records accepting with the person's client and request, and each invitation it closed", async () => {
    const { orgId } = await makeOrg();
    const { ctx } = await ownerOf(orgId, "10.32.2.1");
    const joiner = await person("Joiner", "10.32.2.2");
    const used = await createInvitation({ ctx, email: joiner.email, role: "member" });
    const other = await createInvitation({ ctx, email: joiner.email, role: "admin" });
    const origin = { address: "203.0.113.20", userAgent: "Joiner's browser" };
    const joining = await personCtx(joiner, origin);
    await acceptInvitation({ ctx: joining, token: used.token });

    const [accepted] = (await rowsOf(orgId, used.invitation.id)).slice(1);
    expect(brief(accepted!)).toEqual(["invitation.accepted", "user", joiner.id, { role: "member" }]);
    expect(accepted).toMatchObject({
      clientAddress: "203.0.113.20",
      userAgent: "Joiner's browser",
      requestId: joining.requestId,
    });
    const [closed] = (await rowsOf(orgId, other.invitation.id)).slice(1);
    expect(brief(closed!)).toEqual([
      "invitation.revoked",
      "user",
      joiner.id,
      { role: "admin", because: "invitation_accepted" },
    ]);
    expect(closed!.clientAddress).toBe("203.0.113.20");
  });

  it("records the invitations a removal closed, as the person who removed", async () => {
    const { orgId } = await makeOrg();
    const { owner, ctx } = await ownerOf(orgId, "10.32.3.1");
    const leaver = await person("Leaver", "10.32.3.2");
    const open = await createInvitation({ ctx, email: leaver.email, role: "admin" });
    await addMember({ ctx: await systemCtx(), orgId, email: leaver.email, role: "member" });
    // A link left open from before these rules dies with the removal.
    const db = await getDb();
    await db.update(invitations).set({ revokedAt: null }).where(eq(invitations.id, open.invitation.id));
    await removeMember({ ctx, userId: leaver.id });

    const rows = await rowsOf(orgId, open.invitation.id);
    expect(rows.map(brief).slice(-1)).toEqual([
      ["invitation.revoked", "user", owner.id, { role: "admin", because: "member_removed" }],
    ]);
    expect(rows.at(-1)!.clientAddress).toBe("198.51.100.9");
    expect(JSON.stringify(rows.map((r) => r.summary))).not.toContain("example.test");
  });
});

describe("audit rows for the saved CSV mapping", () => {
  it("records a save with the fields mapped, not the client's column names", async () => {
    const { orgId, key, keyId } = await makeOrg();
    const headers = { "X-Forwarded-For": "203.0.113.30", "User-Agent": "erp/2" };
    const mapping = { "recipient.postal_code": "Customer ZIP", reference: "Order" };
    expect((await call(putMapping, "PUT", "/v1/batches/mapping", { key, headers, body: { mapping } })).status).toBe(
      200,
    );
    const [row] = await rowsOf(orgId, orgId);
    expect(brief(row!)).toEqual([
      "batch_mapping.updated",
      "api_key",
      keyId,
      { fields: ["recipient.postal_code", "reference"] },
    ]);
    expect(row).toMatchObject({ clientAddress: "203.0.113.30", userAgent: "erp/2", requestId: expect.any(String) });
    expect(JSON.stringify(row!.summary)).not.toContain("Customer ZIP");
  });

  it("writes no row when the save rolled back", async () => {
    const { orgId } = await makeOrg();
    const ctx = await orgCtx(orgId);
    await expect(
      withTransaction(ctx, async (tx) => {
        await saveMappingTemplate(tx, { mapping: { reference: "Order" } });
        throw new Error("the caller's transaction fails after the save");
      }),
    ).rejects.toThrow(/caller's transaction/);
    const db = await getDb();
    expect(await db.select().from(batchMappings).where(eq(batchMappings.orgId, orgId))).toEqual([]);
    expect(await rowsOf(orgId, orgId)).toEqual([]);
  });
});

describe("audit rows for a person's own account", () => {
  it("records a name change, a password change and revoked sessions, as the person, with field names only", async () => {
    const me = await person("Ada Account", "10.32.4.1");
    const [membership] = await (
      await getDb()
    )
      .select({ orgId: memberships.orgId })
      .from(memberships)
      .where(eq(memberships.userId, me.id));
    const orgId = membership!.orgId;
    const address = "192.0.2.40";
    const post = (path: string, body: unknown, cookie: string) => authPost(path, body, { cookie, address });

    expect((await post("/update-user", { name: "Ada Renamed", favourite: "x" }, me.cookie)).status).toBe(200);
    // Refused: a wrong current password changes nothing and records nothing.
    const wrong = { currentPassword: "not my password", newPassword: "a new password 1" };
    expect((await post("/change-password", wrong, me.cookie)).status).toBe(400);
    const changed = await post(
      "/change-password",
      { currentPassword: me.password, newPassword: `${me.password}!` },
      me.cookie,
    );
    expect(changed.status).toBe(200);
    const cookie = cookieFrom(changed);

    // One other session revoked by its token; someone else's token revokes nothing and records nothing.
    const second = cookieFrom(await signIn({ email: me.email, password: `${me.password}!` }, address));
    const secondToken = decodeURIComponent(second.split("=")[1]!).split(".")[0]!;
    const stranger = await person("Stranger", "10.32.4.2");
    const strangerToken = decodeURIComponent(stranger.cookie.split("=")[1]!).split(".")[0]!;
    expect((await post("/revoke-session", { token: strangerToken }, cookie)).status).toBe(200);
    expect((await post("/revoke-session", { token: secondToken }, cookie)).status).toBe(200);
    await signIn({ email: me.email, password: `${me.password}!` }, address);
    expect((await post("/revoke-other-sessions", {}, cookie)).status).toBe(200);
    expect((await post("/revoke-sessions", {}, cookie)).status).toBe(200);
    // Deleting an account is not offered (better-auth's delete-user is off): nothing to record.
    expect((await post("/delete-user", {}, cookieFrom(await signIn(stranger, address)))).status).toBe(404);

    const rows = (await rowsOf(orgId, me.id)).filter((r) => !r.action.startsWith("user.sign"));
    expect(rows.map(brief)).toEqual([
      ["member.added", "user", me.id, { role: "owner", because: "sign_up" }],
      ["user.updated", "user", me.id, { fields: ["name"] }],
      ["user.password_changed", "user", me.id, { other_sessions_revoked: true }],
      ["user.sessions_revoked", "user", me.id, { sessions: "one" }],
      ["user.sessions_revoked", "user", me.id, { sessions: "others" }],
      ["user.sessions_revoked", "user", me.id, { sessions: "all" }],
    ]);
    for (const row of rows.slice(1)) expect(row.clientAddress).toBe(address);
    // Every row names its request (the sign-up's too), the password change's the id its answer carried.
    for (const row of rows) expect(row.requestId).toMatch(/^req_/);
    expect(rows[2]!.requestId).toBe(changed.headers.get("x-request-id"));
    const text = JSON.stringify(rows);
    for (const secret of ["Ada Renamed", me.password, secondToken, me.email]) expect(text).not.toContain(secret);
  });
});
