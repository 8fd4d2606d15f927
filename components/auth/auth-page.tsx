import { redirect } from "next/navigation";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { openInvitation } from "@/lib/dashboard/invitation";
import { safeNext } from "@/lib/dashboard/next-path";
import { currentSession } from "@/lib/dashboard/session";
import { env } from "@/lib/env";
import { AuthForm } from "./auth-form";

/**
 * The invitation a sign-up continues to, when its page is where it goes next (its link's holder knows the address
 * already): the address is filled in, so the account is made with the one the invitation expects, and the link's
 * token goes with the sign-up, which SIGN_UP=invite_only asks of an invited address (lib/auth/sign-up-policy.ts).
 */
async function invitationOf(next: string): Promise<{ email: string; token: string } | undefined> {
  const token = /^\/invite\/([^/?#]+)$/.exec(next)?.[1];
  if (!token) return undefined;
  const invitation = await openInvitation(token);
  return invitation?.state === "pending" ? { email: invitation.email, token } : undefined;
}

/** The sign-in and sign-up pages: someone already signed in goes straight on to where they were going. */
export async function AuthPage({
  mode,
  searchParams,
}: {
  mode: "sign-in" | "sign-up";
  searchParams: Promise<{ next?: string | string[] }>;
}) {
  const asked = (await searchParams).next;
  const next = safeNext(typeof asked === "string" ? asked : null);
  if (await currentSession()) redirect(next);
  const invitation = mode === "sign-up" ? await invitationOf(next) : undefined;
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h1">
          <span className="text-xl">{mode === "sign-in" ? "Sign in" : "Create your account"}</span>
        </CardTitle>
        <CardDescription>
          {mode === "sign-in"
            ? "Buy labels, print them and follow parcels."
            : env().SIGN_UP === "invite_only"
              ? "Accounts here are by invitation: use the email address your invitation was sent to."
              : "The first account owns this installation's organization; later ones start their own."}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <AuthForm mode={mode} next={next} email={invitation?.email} invitation={invitation?.token} />
      </CardContent>
    </Card>
  );
}
