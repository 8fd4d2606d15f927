import { redirect } from "next/navigation";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { openInvitation } from "@/lib/dashboard/invitation";
import { safeNext } from "@/lib/dashboard/next-path";
import { currentSession } from "@/lib/dashboard/session";
import { env } from "@/lib/env";
import { AuthForm } from "./auth-form";

/**
 * The address an invitation was sent to, when the sign-up continues to that invitation's page (its link's holder
 * knows the address already): filled in, so the account is made with the address the invitation expects.
 */
async function invitedEmail(next: string): Promise<string | undefined> {
  const token = /^\/invite\/([^/?#]+)$/.exec(next)?.[1];
  if (!token) return undefined;
  const invitation = await openInvitation(token);
  return invitation?.state === "pending" ? invitation.email : undefined;
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
  const email = mode === "sign-up" ? await invitedEmail(next) : undefined;
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
        <AuthForm mode={mode} next={next} email={email} />
      </CardContent>
    </Card>
  );
}
