import "server-only";
import { acceptInvitation, invitationByToken } from "@/lib/auth/invitations";
import type { DomainContext } from "@/lib/context";
import { getDb } from "@/lib/db/client";

/** An invitation link's page reads the link before anyone is signed in: the token is the only key. */
export async function openInvitation(token: string) {
  return invitationByToken(await getDb(), token);
}

/**
 * Accepts the link as the person the session's context acts as, with its client and request id for the audit log
 * (lib/auth/invitations.ts holds the rules).
 */
export async function acceptAsUser(token: string, ctx: DomainContext) {
  return acceptInvitation({ ctx, token });
}
