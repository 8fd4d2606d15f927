"use server";

import { revalidatePath } from "next/cache";
import { createInvitation, revokeInvitation } from "@/lib/auth/invitations";
import { ROLES, type Role } from "@/lib/auth/roles";
import { changeMemberRole, removeMember } from "@/lib/auth/team";
import { requireSession } from "@/lib/dashboard/session";
import { DomainError, ValidationError } from "@/lib/errors";
import { rawInputProblems } from "@/lib/validation";

/**
 * Settings → Team's writes, as server actions rather than /v1 routes: members and invitations are people's business
 * in the dashboard (an API key acts for no person, so it could neither invite as someone nor be held to the
 * owner rules), and Next.js checks a server action's Origin against the host as the API checks a cookie's writes.
 * The verbs check the acting person's role themselves, from the database.
 */
export type ActionResult<T = object> = ({ ok: true } & T) | { ok: false; message: string; field?: string };

async function run<T extends object>(fn: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    const value = await fn();
    revalidatePath("/settings/team");
    return { ok: true, ...value };
  } catch (err) {
    if (err instanceof ValidationError) {
      const first = err.problems[0];
      return { ok: false, message: first?.message ?? err.message, field: first?.field ?? undefined };
    }
    if (err instanceof DomainError) return { ok: false, message: err.message };
    throw err;
  }
}

// A server action's arguments are whatever the client posted, whatever the types say: an object with no usable
// toString was a 500, a NUL a database error. Text we can store, or the field's error.
const asText = (value: unknown, field: string): string => {
  if (typeof value !== "string") throw new ValidationError("must be text", field);
  const [problem] = rawInputProblems(value);
  if (problem) throw new ValidationError(problem.message, field);
  return value;
};

const asRole = (value: unknown): Role => {
  if (typeof value === "string" && (ROLES as readonly string[]).includes(value)) return value as Role;
  throw new ValidationError("must be owner, admin or member", "role");
};

export async function inviteMember(email: string, role: string): Promise<ActionResult<{ token: string }>> {
  const { ctx } = await requireSession();
  return run(async () => {
    const { token } = await createInvitation({ ctx, email: asText(email, "email"), role: asRole(role) });
    return { token };
  });
}

export async function revokeInvite(id: string): Promise<ActionResult> {
  const { ctx } = await requireSession();
  return run(async () => {
    await revokeInvitation({ ctx, id: asText(id, "id") });
    return {};
  });
}

export async function changeRole(userId: string, role: string): Promise<ActionResult> {
  const { ctx } = await requireSession();
  return run(async () => {
    await changeMemberRole({ ctx, userId: asText(userId, "userId"), role: asRole(role) });
    return {};
  });
}

export async function removeFromTeam(userId: string): Promise<ActionResult> {
  const { ctx } = await requireSession();
  return run(async () => {
    await removeMember({ ctx, userId: asText(userId, "userId") });
    return {};
  });
}
