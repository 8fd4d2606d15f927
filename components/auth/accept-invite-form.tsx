"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { acceptInvite } from "@/app/(auth)/invite/[token]/actions";

/** The Accept button of an invitation page; the server's refusal (used meanwhile, wrong account) shows beside it. */
export function AcceptInviteForm({ token, orgName }: { token: string; orgName: string }) {
  const [problem, action, pending] = useActionState(acceptInvite, null);
  return (
    <form action={action} className="grid gap-3">
      <input type="hidden" name="token" value={token} />
      <Button type="submit" loading={pending} submitsWithoutScript>
        Join {orgName}
      </Button>
      {problem && (
        <p role="alert" className="text-sm text-destructive">
          {problem}
        </p>
      )}
    </form>
  );
}
