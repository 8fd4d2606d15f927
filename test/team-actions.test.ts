import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { resetSignInLimits } from "@/lib/api/auth-endpoint";
import { addMember, membershipOf } from "@/lib/auth/memberships";
import { getDb } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import type { DashboardSession } from "@/lib/dashboard/session";
import { makeOrg, orgCtx, systemCtx } from "./helpers";
import { newAccount, signUp } from "./session-helpers";

/**
 * Settings → Team's server actions take whatever a client posts, whatever their TypeScript types say: a value that is
 * not text, or text the database cannot store, is the field's error ({ ok: false }), never a 500.
 */
let session: DashboardSession;
vi.mock("@/lib/dashboard/session", () => ({ requireSession: async () => session }));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

async function person(name: string, n: number) {
  const account = newAccount(name);
  await signUp(account, `10.8.0.${n}`);
  const [row] = await (await getDb()).select({ id: users.id }).from(users).where(eq(users.email, account.email));
  return { id: row!.id, email: account.email };
}

let orgId: string;
let member: { id: string; email: string };
beforeAll(async () => {
  resetSignInLimits();
  ({ orgId } = await makeOrg("Team actions"));
  const owner = await person("Owner", 1);
  member = await person("Member", 2);
  await addMember({ ctx: await systemCtx(), orgId, email: owner.email, role: "owner" });
  await addMember({ ctx: await systemCtx(), orgId, email: member.email, role: "member" });
  session = {
    user: { id: owner.id, name: "Owner", email: owner.email },
    sessionId: "s",
    org: { id: orgId, name: "Team actions" },
    role: "owner",
    ctx: { ...(await orgCtx(orgId)), actor: { type: "user", id: owner.id } },
  };
});

describe("Settings → Team's actions", () => {
  it("answer a value that is not text, or holds a NUL or a lone surrogate, with the field's error", async () => {
    const { changeRole, inviteMember, removeFromTeam, revokeInvite } =
      await import("@/app/(dashboard)/settings/team/actions");
    const notText = { toString: null } as unknown as string;
    expect(await changeRole(notText, "admin")).toEqual({ ok: false, message: "must be text", field: "userId" });
    expect(await removeFromTeam(["x"] as unknown as string)).toMatchObject({ ok: false, field: "userId" });
    expect(await removeFromTeam("a\u0000b")).toMatchObject({ ok: false, field: "userId" });
    expect(await revokeInvite(5 as unknown as string)).toMatchObject({ ok: false, field: "id" });
    expect(await revokeInvite("\ud800")).toMatchObject({ ok: false, field: "id" });
    expect(await inviteMember(notText, "member")).toMatchObject({ ok: false, field: "email" });
    // Nothing changed for the member the refused calls named.
    expect(await membershipOf(await getDb(), member.id)).toMatchObject({ orgId, role: "member" });
  });

  it("still do what they are asked with text", async () => {
    const { changeRole } = await import("@/app/(dashboard)/settings/team/actions");
    expect(await changeRole(member.id, "admin")).toEqual({ ok: true });
    expect(await membershipOf(await getDb(), member.id)).toMatchObject({ orgId, role: "admin" });
  });
});
