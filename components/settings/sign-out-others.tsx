"use client";

import { useApiMutation } from "@/components/forms/use-api-mutation";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { authPost, signedInProblem } from "@/lib/client/auth";

/** Revokes every session of this person but the one in this browser. */
export function SignOutOthers({ count }: { count: number }) {
  const revoke = useApiMutation({
    request: async () => {
      const answer = await authPost("revoke-other-sessions");
      if (!answer.ok) throw signedInProblem(answer, "The other sessions could not be signed out. Try again.");
    },
    success: "Signed out everywhere else.",
  });
  return (
    <ConfirmDialog
      trigger={
        <Button variant="outline" disabled={count === 0}>
          Sign out other sessions
        </Button>
      }
      title="Sign out every other session?"
      description="Browsers where you are signed in, other than this one, will need to sign in again."
      confirmLabel={`Sign out ${count} other ${count === 1 ? "session" : "sessions"}`}
      onConfirm={() => revoke.mutateAsync()}
    />
  );
}
