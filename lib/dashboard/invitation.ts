import "server-only";
import { acceptInvitation, invitationByToken } from "@/lib/auth/invitations";
import { getDb } from "@/lib/db/client";

/** An invitation link's page reads the link before anyone is signed in: the token is the only key. */
export async function openInvitation(token: string) {
  return invitationByToken(await getDb(), token);
}

/** Accepts the link as the signed-in person (lib/auth/invitations.ts holds the rules). */
export async function acceptAsUser(token: string, user: { id: string; email: string }) {
  return acceptInvitation({ db: await getDb(), token, user });
}
