import type { Metadata } from "next";
import Link from "next/link";
import { AcceptInviteForm } from "@/components/auth/accept-invite-form";
import { buttonVariants } from "@/components/ui/button-variants";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { openInvitation } from "@/lib/dashboard/invitation";
import { currentSession } from "@/lib/dashboard/session";

export const metadata: Metadata = { title: "Invitation", robots: { index: false } };

const WHY: Record<string, string> = {
  expired: "This invitation expired: links work for 7 days. Ask whoever invited you for a new one.",
  revoked: "This invitation was withdrawn. Ask whoever invited you for a new one.",
  accepted: "This invitation has already been used. If it was you, sign in; otherwise ask for a new one.",
};

/** An invitation link (Settings → Team): who invites you as what, and how to accept, signed in or after signing up. */
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invitation = await openInvitation(token);
  if (!invitation || invitation.state !== "pending") {
    return (
      <Card>
        <CardHeader>
          <CardTitle as="h1">
            <span className="text-xl">This invitation link does not work</span>
          </CardTitle>
          <CardDescription>
            {invitation
              ? WHY[invitation.state]
              : "The link is not valid: check that it was copied whole, or ask for a new one."}
          </CardDescription>
        </CardHeader>
        <CardContent>
          <Link href="/sign-in" className={buttonVariants({ variant: "outline" })}>
            Go to sign in
          </Link>
        </CardContent>
      </Card>
    );
  }
  const session = await currentSession();
  const here = encodeURIComponent(`/invite/${token}`);
  const article = invitation.role === "admin" || invitation.role === "owner" ? "an" : "a";
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h1">
          <span className="text-xl">Join {invitation.orgName}</span>
        </CardTitle>
        <CardDescription>
          You are invited as {article} {invitation.role}, with the address {invitation.email}.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {!session ? (
          <>
            <Link href={`/sign-up?next=${here}`} className={buttonVariants()}>
              Create an account to accept
            </Link>
            <Link href={`/sign-in?next=${here}`} className={buttonVariants({ variant: "outline" })}>
              I have an account: sign in
            </Link>
          </>
        ) : session.user.email.toLowerCase() !== invitation.email ? (
          <p role="alert" className="text-sm text-destructive">
            You are signed in as {session.user.email}. Sign out and sign in (or sign up) as {invitation.email} to
            accept.
          </p>
        ) : (
          <AcceptInviteForm token={token} orgName={invitation.orgName} />
        )}
      </CardContent>
    </Card>
  );
}
