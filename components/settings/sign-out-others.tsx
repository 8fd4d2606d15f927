"use client";

import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { authPost } from "@/lib/client/auth";

/** Revokes every session of this person but the one in this browser. */
export function SignOutOthers({ count }: { count: number }) {
  const router = useRouter();
  async function revoke() {
    if (!(await authPost("revoke-other-sessions")).ok) {
      toast.error("The other sessions could not be signed out. Try again.");
      throw new Error("revoke failed");
    }
    toast.success("Signed out everywhere else.");
    router.refresh();
  }
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
      onConfirm={revoke}
    />
  );
}
